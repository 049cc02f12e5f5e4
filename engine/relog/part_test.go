package relog

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/perfcalc/perfcalc/engine/blg"
)

// partLogs are the logs that TestParts reads in parts: the hand-made one
// (one buffer: no part but the first) and the shared corpus's, which
// hold many buffers, a damaged one among them.
func partLogs(t *testing.T) map[string][]byte {
	logs := map[string][]byte{"hand-made": exampleLog(300)}
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "blg")
	for _, name := range []string{"Tx_BasicPerfCounters.blg", "PAL_SamplePerfmonLog.blg", "PowerShell_BadCounterSamples.blg"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Logf("skipping %s: the shared folder is absent (%v)", name, err)
			continue
		}
		if _, err := blg.NewReader(bytes.NewReader(b), int64(len(b))); err != nil {
			continue // not a log this test can open
		}
		logs[name] = b
		if name == "Tx_BasicPerfCounters.blg" {
			logs["Tx cut at 2/3"] = b[:len(b)*2/3+1000] // damaged: truncated inside a buffer
		}
	}
	return logs
}

// TestParts reads logs in 2 to 5 parts (Options.PartFrom, PartTo) and
// checks that the parts' texts, one
// after the other, are the whole log's, byte for byte, in CSV and JSON,
// with and without a selection, a time range and Every, and that the
// parts' rows are the log's rows (index, time and cells).
func TestParts(t *testing.T) {
	split := 0 // readings in parts
	for name, log := range partLogs(t) {
		for _, opts := range []Options{
			{},
			{Every: 3},
			{Counters: MustPaths(`\Processor(*)\% Processor Time`)},
			{Begin: testLocal + 5*ticksPerSecond, End: testLocal + 100*ticksPerSecond},
		} {
			for n := 2; n <= 5; n++ {
				// Equal byte ranges, which cut buffers and records
				// anywhere; for n = 4, at the buffers' bounds (64 KiB).
				bounds := []int64{0}
				for k := 1; k < n; k++ {
					b := int64(len(log)) * int64(k) / int64(n)
					if n == 4 {
						b &^= 0xffff
					}
					if b > bounds[len(bounds)-1] {
						bounds = append(bounds, b) // (0, 0) would be the whole log
					}
				}
				bounds = append(bounds, 0)
				split++
				what := name + " " + strconv.Itoa(len(bounds)-1) + " parts"
				for _, f := range []Format{CSV, JSON} {
					want, wantErr := writeText(t, log, opts, f)
					var got bytes.Buffer
					var gotErr error
					for k := 0; k+1 < len(bounds); k++ {
						o := opts
						o.PartFrom, o.PartTo = bounds[k], bounds[k+1]
						text, err := writeText(t, log, o, f)
						got.WriteString(text)
						if err != nil {
							gotErr = err
							break // the parts after a damage add nothing
						}
					}
					if got.String() != want {
						t.Errorf("%s, %+v, format %d: the parts' text differs from the log's (%d bytes, want %d)", what, opts, f, got.Len(), len(want))
					}
					if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
						t.Errorf("%s, %+v: parts' damage %v, want %v", what, opts, gotErr, wantErr)
					}
				}
				wantRows := rowsOf(t, log, opts)
				var gotRows []string
				for k := 0; k+1 < len(bounds); k++ {
					o := opts
					o.PartFrom, o.PartTo = bounds[k], bounds[k+1]
					gotRows = append(gotRows, rowsOf(t, log, o)...)
				}
				if len(gotRows) < len(wantRows) {
					t.Errorf("%s, %+v: %d rows, want %d", what, opts, len(gotRows), len(wantRows))
					continue
				}
				for i := range wantRows {
					if gotRows[i] != wantRows[i] {
						t.Errorf("%s, %+v: row %d is %s, want %s", what, opts, i, gotRows[i], wantRows[i])
						break
					}
				}
			}
		}
	}
	t.Logf("%d readings in parts", split)
}

func writeText(t testing.TB, log []byte, opts Options, f Format) (string, error) {
	t.Helper()
	c, err := New(bytes.NewReader(log), int64(len(log)), opts)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	err = c.Write(&b, f)
	return b.String(), err
}

// rowsOf returns the rows of Next as text (index, time, every cell), up to
// a damage.
func rowsOf(t testing.TB, log []byte, opts Options) []string {
	t.Helper()
	c, err := New(bytes.NewReader(log), int64(len(log)), opts)
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for c.Next() {
		r := c.Row()
		b := strconv.AppendInt(nil, int64(r.Index), 10)
		b = strconv.AppendInt(append(b, ' '), r.Time, 10)
		for _, cell := range r.Cells {
			b = append(b, ' ')
			if cell.Present {
				b = strconv.AppendFloat(b, cell.Result.Value, 'g', -1, 64)
				b = strconv.AppendUint(append(b, '/'), uint64(cell.Result.Status), 10)
				b = strconv.AppendUint(append(b, '/'), cell.Raw.FirstValue, 10)
			}
		}
		rows = append(rows, string(b))
	}
	return rows
}

// FuzzParts cuts a log in two at any byte offset, and reads any byte range
// as a part: the two parts' CSV is the log's, and no range panics or
// errs where the whole log does not. The log is 100 samples in seven 4 KiB
// buffers (28 KiB): six buffer boundaries, as 2,000 samples in 64 KiB
// buffers have seven, at a twentieth of the bytes to read three times per
// input (those ran about 100 inputs a second, too few for make fuzz).
func FuzzParts(f *testing.F) {
	log := exampleLogBuffers(0, 100, 4096)
	f.Add(uint32(3*4096+100), uint32(0), uint32(100))
	f.Add(uint32(1), uint32(5), uint32(3))
	f.Add(uint32(len(log)), uint32(len(log)+5), uint32(0))
	want, wantErr := writeText(f, log, Options{}, CSV)
	if wantErr != nil {
		f.Fatal(wantErr)
	}
	f.Fuzz(func(t *testing.T, cut, from, to uint32) {
		a, errA := writeText(t, log, Options{PartFrom: 0, PartTo: int64(cut)}, CSV)
		b, errB := writeText(t, log, Options{PartFrom: int64(cut)}, CSV)
		if cut == 0 {
			a = "" // (0, 0) is the whole log: the first part is empty
		}
		if errA != nil || errB != nil || a+b != want {
			t.Fatalf("cut at %d: %d + %d bytes (%v, %v), want %d", cut, len(a), len(b), errA, errB, len(want))
		}
		if _, err := writeText(t, log, Options{PartFrom: int64(from), PartTo: int64(to)}, JSON); err != nil {
			t.Fatalf("part %d to %d: %v", from, to, err)
		}
	})
}
