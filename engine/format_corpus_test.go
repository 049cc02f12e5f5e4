package engine_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/cputime"
)

// pdhTextFiles are the real 20-digit CSV logs of ../shared/corpus/pdh-text.
var pdhTextFiles = []string{
	"desktop2022_cpu_20digits.csv",
	"desktop2022_disk_20digits.csv",
	"desktop2022_memory_20digits.csv",
	"desktop2022_network_20digits.csv",
}

// pdhTextCells returns the numeric cells of the real 20-digit CSV logs as
// Windows wrote them: every cell after the header row and the time column
// that is not PDH's " " for a missing value. It skips when the corpus is
// absent.
func pdhTextCells(tb testing.TB) []string {
	tb.Helper()
	dir := corpus.Shared(tb, "pdh-text")
	var cells []string
	for _, name := range pdhTextFiles {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			tb.Fatal(err)
		}
		lines := bytes.Split(bytes.TrimSuffix(b, []byte("\r\n")), []byte("\r\n"))
		if len(lines) < 2 {
			tb.Fatalf("%s: %d lines, want a header and rows", name, len(lines))
		}
		for i, line := range lines[1:] {
			if len(line) < 2 || line[0] != '"' || line[len(line)-1] != '"' {
				tb.Fatalf("%s:%d: not a quoted CSV row (or not CR LF)", name, i+2)
			}
			for _, c := range bytes.Split(line[1:len(line)-1], []byte(`","`))[1:] {
				if string(c) != " " {
					cells = append(cells, string(c))
				}
			}
		}
	}
	return cells
}

// TestPDHTextReprint parses every numeric cell of the four real 20-digit
// CSV logs and prints it again at 20 digits: the text must be exactly
// what Windows wrote.
func TestPDHTextReprint(t *testing.T) {
	cells := pdhTextCells(t)
	if len(cells) < 10_000 {
		t.Fatalf("only %d numeric cells", len(cells))
	}
	fallbacks, exps := 0, 0
	var buf []byte
	for _, c := range cells {
		v, err := strconv.ParseFloat(c, 64)
		if err != nil {
			t.Fatalf("cell %q: %v", c, err)
		}
		if buf = engine.AppendFloat(buf[:0], v, engine.DefaultDigits); string(buf) != c {
			t.Errorf("cell %q prints as %q", c, buf)
		}
		if _, ok := engine.AppendFloatFast(buf[:0], v, engine.DefaultDigits); !ok {
			fallbacks++
		}
		if bytes.IndexByte(buf, 'e') >= 0 {
			exps++
		}
	}
	t.Logf("%d cells (%d with an exponent) print as Windows wrote them; the fast path fell back on %d", len(cells), exps, fallbacks)
	if exps == 0 {
		t.Error("no cell with an exponent: the files are not the expected ones")
	}
	if fallbacks != 0 {
		t.Errorf("the fast path fell back on %d real values", fallbacks)
	}
}

// txValues returns the values relog computes from the real Tx log (every
// Valid cell), or skips when the corpus is absent.
func txValues(tb testing.TB) []float64 {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(corpus.Shared(tb, "blg"), "Tx_BasicPerfCounters.blg"))
	if err != nil {
		tb.Fatal(err)
	}
	c, err := relog.New(bytes.NewReader(b), int64(len(b)), relog.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	var vals []float64
	for c.Next() {
		for _, cell := range c.Row().Cells {
			if cell.Result.Status == engine.Valid {
				vals = append(vals, cell.Result.Value)
			}
		}
	}
	if err := c.Err(); err != nil {
		tb.Fatal(err)
	}
	return vals
}

// TestTxValuesFastPath checks the values relog computes from the real Tx
// log at 17 and 20 digits, and that the fast path decides every one.
func TestTxValuesFastPath(t *testing.T) {
	vals := txValues(t)
	if len(vals) < 1000 {
		t.Fatalf("only %d values", len(vals))
	}
	for _, v := range vals {
		for _, d := range []int{engine.LegacyDigits, engine.DefaultDigits} {
			have, ok := engine.AppendFloatFast(nil, v, d)
			if !ok {
				t.Errorf("%%.%dg of %v: the fast path fell back", d, v)
				continue
			}
			if want := engine.AppendFloat(nil, v, d); string(have) != string(want) {
				t.Errorf("%%.%dg of %v: fast %q, AppendFloat %q", d, v, have, want)
			}
			if want := widened(strconv.FormatFloat(v, 'g', d, 64)); string(have) != want {
				t.Errorf("%%.%dg of %v: have %q, strconv %q", d, v, have, want)
			}
		}
	}
}

// widened is s (strconv's %g) with its exponent written with at least
// three digits.
func widened(s string) string {
	if n := len(s); n >= 4 && s[n-4] == 'e' {
		return s[:n-2] + "0" + s[n-2:]
	}
	return s
}

// BenchmarkAppendFloat compares engine.AppendFloat with
// strconv.AppendFloat(…, 'g', digits, 64) at 17 and 20 digits on the real
// values (the four 20-digit CSV logs and the values relog computes from
// the Tx log, in the order of the files' rows, as relog formats them) and on
// random doubles (uniformly random bits), side by side
// in one run (make bench-format runs it interleaved and prints benchstat's
// ratios; on a busy machine read the cpu-ns/value rows).
func BenchmarkAppendFloat(b *testing.B) {
	var real []float64
	for _, c := range pdhTextCells(b) {
		v, err := strconv.ParseFloat(c, 64)
		if err != nil {
			b.Fatal(err)
		}
		real = append(real, v)
	}
	real = append(real, txValues(b)...)
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]float64, 4096)
	for i := range random {
		for random[i] = math.NaN(); math.IsNaN(random[i]) || math.IsInf(random[i], 0); {
			random[i] = math.Float64frombits(rng.Uint64())
		}
	}
	for _, set := range []struct {
		name string
		vals []float64
	}{{"real", real}, {"random", random}} {
		for _, d := range []int{engine.LegacyDigits, engine.DefaultDigits} {
			for _, impl := range []struct {
				name string
				fn   func([]byte, float64, int) []byte
			}{
				{"engine", engine.AppendFloat},
				{"strconv", func(dst []byte, v float64, d int) []byte { return strconv.AppendFloat(dst, v, 'g', d, 64) }},
			} {
				b.Run("set="+set.name+"/digits="+strconv.Itoa(d)+"/impl="+impl.name, func(b *testing.B) {
					buf := make([]byte, 0, 64)
					vals := set.vals
					b.ReportAllocs()
					t := cputime.Start(b)
					for i, j := 0, 0; i < b.N; i++ {
						buf = impl.fn(buf[:0], vals[j], d)
						if j++; j == len(vals) {
							j = 0
						}
					}
					t.Report(b, float64(b.N), "value")
				})
			}
		}
	}
}
