package relog

import (
	"bytes"
	"errors"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

// pieces records what Write hands to its writer, call by call.
type pieces struct{ calls [][]byte }

func (p *pieces) Write(b []byte) (int, error) {
	p.calls = append(p.calls, append([]byte(nil), b...))
	return len(b), nil
}

// writeBoth writes log in format f on one goroutine and through the
// pipeline, and returns both writers and errors.
func writeBoth(t *testing.T, log []byte, opts Options, f Format) (seq, par pieces, seqErr, parErr error) {
	t.Helper()
	defer func(old bool) { sequentialWrite = old }(sequentialWrite)
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	sequentialWrite = true
	seqErr = open(t, log, opts).Write(&seq, f)
	sequentialWrite = false
	parErr = open(t, log, opts).Write(&par, f)
	return seq, par, seqErr, parErr
}

// TestWritePipeline: Write through the pipeline (reading and computing in
// a goroutine of their own, formatting in others) writes the same bytes,
// in bounded pieces, and returns the same error, as Write on one
// goroutine: every real log, every format, with options, and damaged.
func TestWritePipeline(t *testing.T) {
	tx := readCorpus(t, "Tx_BasicPerfCounters.blg")
	for _, tc := range []struct {
		name string
		log  []byte
		opts Options
	}{
		{"Tx", tx, Options{}},
		{"Tx 17 digits, every 3rd", tx, Options{Digits: 17, Every: 3}},
		{"Tx cut", tx[:len(tx)/2+1234], Options{}},
		{"PowerShell", readCorpus(t, "PowerShell_BadCounterSamples.blg"), Options{}},
		{"PAL", readCorpus(t, "PAL_SamplePerfmonLog.blg"), Options{}},
		{"hand-made", exampleLog(3), Options{}},
		{"no sample", exampleLog(0), Options{}},
	} {
		for _, f := range []Format{CSV, TSV, JSON} {
			seq, par, seqErr, parErr := writeBoth(t, tc.log, tc.opts, f)
			if (seqErr == nil) != (parErr == nil) || seqErr != nil && seqErr.Error() != parErr.Error() {
				t.Errorf("%s, format %d: error %v through the pipeline, %v on one goroutine", tc.name, f, parErr, seqErr)
			}
			if !bytes.Equal(bytes.Join(par.calls, nil), bytes.Join(seq.calls, nil)) {
				t.Errorf("%s, format %d: the pipeline's text differs", tc.name, f)
			}
			for _, p := range [][][]byte{seq.calls, par.calls} {
				for i, b := range p {
					if len(b) == 0 || len(b) > 256<<10 {
						t.Errorf("%s, format %d: write %d of %d bytes, want some and at most 256 KiB", tc.name, f, i, len(b))
					}
				}
			}
			if tc.name == "Tx" && f == CSV && len(seq.calls) < 2 {
				t.Errorf("Tx: %d writes, want the text in several 64 KiB pieces", len(seq.calls))
			}
		}
	}
}

// failing fails its nth write.
type failing struct{ n int }

var errFull = errors.New("disk full")

func (w *failing) Write(b []byte) (int, error) {
	if w.n--; w.n < 0 {
		return 0, errFull
	}
	return len(b), nil
}

// TestWritePipelineError: a writer's error stops the pipeline: Write
// returns it, and the reading goroutine ends.
func TestWritePipelineError(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	log := newTxLog(t, 8).Bytes()
	before := runtime.NumGoroutine()
	for _, n := range []int{0, 1, 5} {
		if err := open(t, log, Options{}).Write(&failing{n: n}, CSV); !errors.Is(err, errFull) {
			t.Errorf("failing write %d: have %v, want %v", n, err, errFull)
		}
	}
	for range 100 {
		if runtime.NumGoroutine() <= before {
			return
		}
		runtime.Gosched()
	}
	t.Errorf("%d goroutines after the failed writes, %d before", runtime.NumGoroutine(), before)
}

// TestPlannedRows: the planned path (a sample laid out as the previous
// one) gives the same text and the same statistics as the slow path, on
// every real log, a long one, and hand-made logs whose instances come,
// go, swap and repeat.
func TestPlannedRows(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // Write's pipeline
	}
	// Runs of layouts long enough to span Write's batches (256 rows of 4
	// columns), planned rows after rows that are not, in a batch and
	// across batches.
	patterns := [][]string{{"a", "b"}, {"b", "a"}, {"a", "b", "b", "c"}, {"c"}, {"a", "b", "b"}}
	var long [][]string
	for i := range 900 {
		long = append(long, patterns[(i/(3+i%97/10))%len(patterns)])
	}
	logs := map[string][]byte{
		"instances, long": instanceLog(long...),
		"Tx":              readCorpus(t, "Tx_BasicPerfCounters.blg"),
		"Tx x3":           newTxLog(t, 3).Bytes(),
		"PowerShell":      readCorpus(t, "PowerShell_BadCounterSamples.blg"),
		"PAL":             readCorpus(t, "PAL_SamplePerfmonLog.blg"),
		"instances": instanceLog([]string{"a", "b"}, []string{"a", "b"}, []string{"a", "b"}, []string{"b", "a"}, []string{"b", "a"},
			[]string{"a"}, []string{"a"}, []string{"a", "b", "b"}, []string{"a", "b", "b"}, []string{"a", "b", "b", "c"}, []string{"a", "b", "b", "c"}),
	}
	for name, log := range logs {
		for _, opts := range []Options{{}, {Every: 2}, {Counters: MustPaths(`\\*\*(b)\*`, `\\*\Processor(_Total)\*`, `\\*\PhysicalDisk(*)\*`)}} {
			texts := map[bool]string{}
			for _, plan := range []bool{true, false} {
				planRows = plan
				var b bytes.Buffer
				err := open(t, log, opts).Write(&b, CSV)
				texts[plan] = b.String() + "\nerror: " + errString(err)
			}
			planRows = true
			if texts[true] != texts[false] {
				t.Errorf("%s %+v: the planned path's text differs from the slow path's", name, opts)
			}
			// Next's cells, every field, both ways.
			planned, slow := open(t, log, opts), open(t, log, opts)
			for planned.Next() {
				planRows = false
				if !slow.Next() {
					t.Fatalf("%s %+v: the slow path ends at row %d", name, opts, planned.Row().Index)
				}
				planRows = true
				for i, cell := range planned.Row().Cells {
					if !reflect.DeepEqual(cell, slow.Row().Cells[i]) {
						t.Fatalf("%s %+v: row %d column %d: planned %+v, slow %+v", name, opts, planned.Row().Index, i, cell, slow.Row().Cells[i])
					}
				}
			}
			planRows = true
			if strings.Count(texts[true], "\r\n") < 3 && name != "PAL" {
				t.Errorf("%s %+v: %d lines, want rows to compare", name, opts, strings.Count(texts[true], "\r\n"))
			}
		}
	}
}

func errString(err error) string {
	if err == nil {
		return "none"
	}
	return err.Error()
}

// repeated returns a real log with its body repeated copies times.
func repeated(t *testing.T, name string, copies int64) []byte {
	l, err := gencorpus.NewRepeatedLog(readCorpus(t, name), copies)
	if err != nil {
		t.Fatal(err)
	}
	return l.Bytes()
}

// TestParallelScan: the first reading in parts (one goroutine each) finds
// the same columns, samples, time range and damage as reading the log in
// one piece, and the text is the same: raw-record logs, a whole-object log
// whose records are split over buffers, filters, logs cut and damaged.
func TestParallelScan(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	tx := repeated(t, "Tx_BasicPerfCounters.blg", 40)
	logs := map[string][]byte{
		"Tx x40":         tx,
		"PowerShell x30": repeated(t, "PowerShell_BadCounterSamples.blg", 30),
		"PAL x30":        repeated(t, "PAL_SamplePerfmonLog.blg", 30),
		"Tx x40 cut":     tx[:len(tx)*2/3+777],
	}
	bad := bytes.Clone(tx)
	copy(bad[len(bad)*3/5:], "damage!!")
	logs["Tx x40 damaged"] = bad
	// A sample record's signature damaged in the second half: the error
	// names the record's index in the log.
	bad = bytes.Clone(tx)
	at := len(bad)*3/4 + bytes.Index(bad[len(bad)*3/4:], []byte("BL\x03\x00"))
	bad[at+1] = 'X'
	logs["Tx x40, a sample record damaged late"] = bad
	// Instances that first appear late in the log (in a later part), and
	// a duplicate name now and then.
	var samples [][]string
	for i := range 60_000 {
		names := []string{"a", "n" + strconv.Itoa(i*7/60_000)}
		if i%1000 == 999 {
			names = append(names, "a")
		}
		samples = append(samples, names)
	}
	logs["instances appearing"] = instanceLog(samples...)
	_, begin, end := open(t, tx, Options{}).Samples()
	for name, log := range logs {
		for _, opts := range []Options{{}, {Begin: begin + (end-begin)/3, End: end - (end-begin)/4}, {Counters: MustPaths(`\\*\Processor(_Total)\*`, `\\*\*\% Processor Time`)}} {
			var texts [2]string
			for i, seq := range []bool{true, false} {
				sequentialScan = seq
				c, err := New(bytes.NewReader(log), int64(len(log)), opts)
				if err != nil {
					t.Fatal(err)
				}
				var b strings.Builder
				n, first, last := c.Samples()
				b.WriteString(strconv.Itoa(n) + " " + strconv.FormatInt(first, 10) + " " + strconv.FormatInt(last, 10) + " " + errString(c.ScanErr()) + "\n")
				for _, col := range c.Columns() {
					b.WriteString(col.Path + " " + col.Type.String() + " " + strconv.Itoa(col.Entry) + "\n")
				}
				err = c.Write(&b, CSV)
				b.WriteString(errString(err))
				texts[i] = b.String()
			}
			sequentialScan = false
			if texts[0] != texts[1] {
				t.Errorf("%s %+v: the first reading in parts differs from the reading in one piece:\n%.300s\n%.300s", name, opts, texts[1], texts[0])
			}
		}
	}
}

// TestParallelScanSplits: the logs of TestParallelScan are large enough to
// be read in parts.
func TestParallelScanSplits(t *testing.T) {
	log := repeated(t, "PAL_SamplePerfmonLog.blg", 30)
	r, err := blg.NewReader(bytes.NewReader(log), int64(len(log)))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(r.Split(2)); n != 2 {
		t.Errorf("a %d-byte log splits into %d parts, want 2", len(log), n)
	}
}
