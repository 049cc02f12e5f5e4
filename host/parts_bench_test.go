package host_test

import (
	"bytes"
	"os"
	"strconv"
	"testing"

	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/host"
)

// BenchmarkParts measures a log read in parts by several instances at once
// (RelogTextParts, DecodeBlgParts) against one instance and against the
// native code on every CPU (host.Native: relog's own parallel first
// reading and pipeline), side by side in one run: relog's CSV and the
// records of one counter (PERFCALC_BENCH_COUNTER, by default
// \Processor(_Total)\% Processor Time) of the 42 MB log (the Tx log
// repeated 160 times; PERFCALC_BENCH_LOG names another), with
// PERFCALC_BENCH_PARTS instances (2 by default). Each side's output is
// compared with the native one's first.
//
//	go test -run '^$' -bench Parts -benchtime 2x -count 3 ./host | benchstat -col /side -
func BenchmarkParts(b *testing.B) {
	log := benchLog(b)
	counter := `\Processor(_Total)\% Processor Time`
	if c := os.Getenv("PERFCALC_BENCH_COUNTER"); c != "" {
		counter = c
	}
	n := 2
	if s := os.Getenv("PERFCALC_BENCH_PARTS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	p, err := counterpath.Parse(counter)
	if err != nil {
		b.Fatal(err)
	}
	sel := relog.Options{Counters: []counterpath.Path{p}}
	e := newEngine(b, host.NewConfig().WithPoolSize(n))
	native := host.Native{}
	type side struct {
		name string
		csv  func() ([]byte, error)
		blg  func() (*host.Decoded, error)
	}
	sides := []side{
		{"native", func() ([]byte, error) { return native.RelogText(log, sel, relog.CSV) }, func() (*host.Decoded, error) { return native.DecodeBlg(log, sel) }},
		{"module", func() ([]byte, error) { return e.RelogText(log, sel, relog.CSV) }, func() (*host.Decoded, error) { return e.DecodeBlg(log, sel) }},
		{"parts" + strconv.Itoa(n), func() ([]byte, error) { return e.RelogTextParts(log, sel, relog.CSV, n) }, func() (*host.Decoded, error) { return e.DecodeBlgParts(log, sel, n) }},
	}
	want, err := sides[0].csv()
	if err != nil {
		b.Fatal(err)
	}
	wantRecs, err := sides[0].blg()
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range sides[1:] {
		got, err := s.csv()
		if err != nil || !bytes.Equal(got, want) {
			b.Fatalf("%s: CSV differs from native's (%v)", s.name, err)
		}
		d, err := s.blg()
		if err != nil || len(d.Records) != len(wantRecs.Records) {
			b.Fatalf("%s: records differ from native's (%v)", s.name, err)
		}
	}
	for _, s := range sides {
		b.Run("op=csv/side="+s.name, func(b *testing.B) {
			b.SetBytes(int64(len(log)))
			for range b.N {
				if _, err := s.csv(); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("op=decode/side="+s.name, func(b *testing.B) {
			b.SetBytes(int64(len(log)))
			for range b.N {
				if _, err := s.blg(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
