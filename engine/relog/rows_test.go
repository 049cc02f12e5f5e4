package relog

import (
	"bytes"
	"errors"
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/engine"
)

// readModes are ReadRows' ways to read: through the pipeline and on one
// goroutine (the WebAssembly module has the second only).
var readModes = []bool{fast, false}

// nextRows returns every row of c as Next and Row give it, as ReadRows
// passes them, and Err.
func nextRows(c *Converter) ([]ComputedRow, error) {
	var rows []ComputedRow
	for c.Next() {
		row := c.Row()
		r := ComputedRow{Index: row.Index, Time: row.Time, Present: make([]bool, len(row.Cells)), Results: make([]engine.Result, len(row.Cells))}
		for i := range row.Cells {
			r.Present[i], r.Results[i] = row.Cells[i].Present, row.Cells[i].Result
		}
		rows = append(rows, r)
	}
	return rows, c.Err()
}

// sameRows reads c with ReadRows, through the pipeline or on one
// goroutine, and compares every row with want (Next's) and the error with
// wantErr. It returns the rows read.
func sameRows(t *testing.T, what string, c *Converter, pipelined bool, want []ComputedRow, wantErr error) int {
	t.Helper()
	defer func(old bool) { sequentialWrite = old }(sequentialWrite)
	sequentialWrite = !pipelined
	if fast && c.pipelined() != pipelined && len(c.columns) > 0 {
		t.Fatalf("%s: pipelined %v, want %v", what, c.pipelined(), pipelined)
	}
	n := 0
	err := c.ReadRows(func(r *ComputedRow) error {
		if n >= len(want) {
			t.Fatalf("%s: row %d (index %d) past Next's %d rows", what, n, r.Index, len(want))
		}
		w := &want[n]
		if r.Index != w.Index || r.Time != w.Time || len(r.Present) != len(w.Present) || len(r.Results) != len(w.Results) {
			t.Fatalf("%s: row %d: index %d time %d, %d columns; Next's: index %d time %d, %d columns",
				what, n, r.Index, r.Time, len(r.Present), w.Index, w.Time, len(w.Present))
		}
		for i := range r.Present {
			// Results compared bit for bit (NaN included).
			if r.Present[i] != w.Present[i] || r.Results[i].Status != w.Results[i].Status ||
				math.Float64bits(r.Results[i].Value) != math.Float64bits(w.Results[i].Value) {
				t.Fatalf("%s: row %d column %d: present %v %+v; Next's: present %v %+v", what, n, i, r.Present[i], r.Results[i], w.Present[i], w.Results[i])
			}
		}
		n++
		return nil
	})
	if n != len(want) {
		t.Errorf("%s: %d rows, Next gives %d", what, n, len(want))
	}
	if errString(err) != errString(wantErr) {
		t.Errorf("%s: error %v, Next's %v", what, err, wantErr)
	}
	return n
}

// TestReadRows: ReadRows, through the pipeline and on one goroutine, gives
// the rows, values and error of Next and Row: every real log, long logs
// (many batches), logs whose instances come and go, options, damaged logs
// and merged logs.
func TestReadRows(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	tx := readCorpus(t, "Tx_BasicPerfCounters.blg")
	tx40 := newTxLog(t, 40).Bytes()
	// A sample record's signature damaged in the second half.
	damaged := bytes.Clone(tx40)
	damaged[len(damaged)*3/4+bytes.Index(damaged[len(damaged)*3/4:], []byte("BL\x03\x00"))+1] = 'X'
	patterns := [][]string{{"a", "b"}, {"b", "a"}, {"a", "b", "b", "c"}, {"c"}, {"a", "b", "b"}}
	var long [][]string // batches of 256 rows, reused (a few in flight)
	for i := range 9000 {
		long = append(long, patterns[(i/(3+i%97/10))%len(patterns)])
	}
	logs := []struct {
		name   string
		log    []byte
		damage bool
	}{
		{"Tx", tx, false},
		{"Tx x40", tx40, false},
		{"Tx x40 damaged", damaged, true},
		{"Tx cut", tx[:len(tx)/2+1234], true},
		{"PowerShell", readCorpus(t, "PowerShell_BadCounterSamples.blg"), false},
		{"PAL", readCorpus(t, "PAL_SamplePerfmonLog.blg"), false},
		{"instances, long", instanceLog(long...), false},
		{"hand-made", exampleLog(3), false},
		{"no sample", exampleLog(0), false},
	}
	for _, l := range logs {
		for _, opts := range []Options{{}, {Every: 3}, {Counters: MustPaths(`\\*\*(b)\*`, `\\*\Processor(_Total)\*`, `\\*\PhysicalDisk(*)\*`)}} {
			want, wantErr := nextRows(open(t, l.log, opts))
			if l.damage != (wantErr != nil) {
				t.Fatalf("%s %+v: Next's error %v", l.name, opts, wantErr)
			}
			for _, pipelined := range readModes {
				sameRows(t, l.name, open(t, l.log, opts), pipelined, want, wantErr)
			}
		}
	}
	// Merged: two machines on alternate seconds, two real logs, and a
	// damaged log with a whole one (an *InputError).
	cut := tx[:len(tx)/2+1234]
	for _, m := range []struct {
		name string
		logs [][]byte
	}{
		{"merged, interleaved", [][]byte{interleaved(`\\A`, 300, 0), interleaved(`\\B`, 300, 1)}},
		{"merged, Tx and PowerShell", [][]byte{tx, readCorpus(t, "PowerShell_BadCounterSamples.blg")}},
		{"merged, cut and whole", [][]byte{cut, rebuild(t, tx, 0, 601)}},
	} {
		want, wantErr := nextRows(merge(t, Options{}, m.logs...))
		if len(want) < 100 {
			t.Fatalf("%s: %d rows, want a long merge", m.name, len(want))
		}
		var ie *InputError
		if (m.name == "merged, cut and whole") != errors.As(wantErr, &ie) {
			t.Fatalf("%s: Next's error %v", m.name, wantErr)
		}
		for _, pipelined := range readModes {
			sameRows(t, m.name, merge(t, Options{}, m.logs...), pipelined, want, wantErr)
		}
	}
}

// TestReadRowsStop: fn's error stops ReadRows at once: ReadRows returns
// it, fn is not called again, and every goroutine of the pipeline ends,
// as they do when fn panics.
func TestReadRowsStop(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	log := newTxLog(t, 8).Bytes()
	stop := errors.New("enough")
	before := runtime.NumGoroutine()
	n, _, _ := open(t, log, Options{}).Samples()
	if n < 2000 {
		t.Fatalf("%d rows, want many batches", n)
	}
	for _, pipelined := range readModes {
		for _, at := range []int{0, 1, 700, n - 1} {
			func() {
				defer func(old bool) { sequentialWrite = old }(sequentialWrite)
				sequentialWrite = !pipelined
				c := open(t, log, Options{})
				calls := 0
				err := c.ReadRows(func(r *ComputedRow) error {
					calls++
					if calls > at {
						return stop
					}
					return nil
				})
				if err != stop || calls != at+1 {
					t.Errorf("pipelined %v, stop at row %d: error %v after %d calls, want %v after %d", pipelined, at, err, calls, stop, at+1)
				}
			}()
		}
	}
	// A panic in fn, recovered by the caller: the goroutines end too.
	for _, pipelined := range readModes {
		func() {
			defer func(old bool) { sequentialWrite = old }(sequentialWrite)
			sequentialWrite = !pipelined
			defer func() {
				if r := recover(); r != stop {
					t.Errorf("pipelined %v: recovered %v, want the panic of fn", pipelined, r)
				}
			}()
			open(t, log, Options{}).ReadRows(func(r *ComputedRow) error {
				if r.Index == 1000 {
					panic(stop)
				}
				return nil
			})
		}()
	}
	for range 100 {
		if runtime.NumGoroutine() <= before {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Errorf("%d goroutines after the stopped readings, %d before", runtime.NumGoroutine(), before)
}
