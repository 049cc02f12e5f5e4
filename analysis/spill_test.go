package analysis

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/openmetrics"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

// runJSON runs set over log with opts and returns the report's JSON and
// Run's error text ("" for none); no JSON for a log relog refuses.
func runJSON(t testing.TB, log []byte, set *Set, opts Options) ([]byte, string) {
	t.Helper()
	c, err := relog.New(bytes.NewReader(log), int64(len(log)), relog.Options{})
	if err != nil {
		return nil, err.Error() // a log relog refuses
	}
	r, err := Run(c, set, opts)
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	if r == nil {
		return nil, msg
	}
	return r.AppendJSON(nil), msg
}

// TestSpillSameReport: with a budget that spills (down to one value a
// chunk, every chunk written), the report is byte for byte the one of the
// values all in memory, exact and compat, on every log of the corpus (the
// damaged ones up to the damage) and on the Tx log repeated (12,000 rows);
// and the spill was written.
func TestSpillSameReport(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	names, _ := filepath.Glob(filepath.Join(dir, "*.blg"))
	if len(names) == 0 {
		t.Skip("no log in " + dir)
	}
	logs := map[string][]byte{}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		logs[filepath.Base(name)] = b
	}
	rep, err := gencorpus.NewRepeatedLog(logs["Tx_BasicPerfCounters.blg"], 20)
	if err != nil {
		t.Fatal(err)
	}
	logs["Tx×20"] = rep.Bytes()
	sets := map[string]*Set{"defaults": Defaults(), "bench": benchSet()}
	for name, log := range logs {
		for setName, set := range sets {
			for _, compat := range []bool{false, true} {
				want, wantErr := runJSON(t, log, set, Options{PALCompat: compat})
				if want == nil {
					continue // a log Run refuses: nothing to spill
				}
				for _, budget := range []int{1, 8 * 64 * 3, 4096, DefaultBudget} {
					sp := &openmetrics.MemorySpill{}
					have, haveErr := runJSON(t, log, set, Options{PALCompat: compat, Spill: sp, Budget: budget})
					if !bytes.Equal(have, want) || haveErr != wantErr {
						t.Errorf("%s %s compat=%v budget %d: the report differs from the one in memory (errors %q, %q)", name, setName, compat, budget, haveErr, wantErr)
					}
					if budget < 4096 && sp.Len() == 0 && strings.HasPrefix(name, "Tx") {
						t.Errorf("%s %s budget %d: nothing spilled", name, setName, budget)
					}
					if budget == DefaultBudget && sp.Len() != 0 {
						t.Errorf("%s %s: %d bytes spilled within the default budget", name, setName, sp.Len())
					}
				}
			}
		}
	}
}

// failSpill is a spill whose writes fail from the write at offset
// writeFrom (−1: never), and whose reads fail when failRead.
type failSpill struct {
	openmetrics.MemorySpill
	writeFrom int64
	failRead  bool
}

var errDisk = errors.New("no space left on device")

func (f *failSpill) WriteAt(p []byte, off int64) (int, error) {
	if f.writeFrom >= 0 && off >= f.writeFrom {
		return 0, errDisk
	}
	return f.MemorySpill.WriteAt(p, off)
}

func (f *failSpill) ReadAt(p []byte, off int64) (int, error) {
	if f.failRead {
		return 0, errDisk
	}
	return f.MemorySpill.ReadAt(p, off)
}

// shortSpill reads back fewer bytes than written, without an error.
type shortSpill struct{ openmetrics.MemorySpill }

func (s *shortSpill) ReadAt(p []byte, off int64) (int, error) {
	n, _ := s.MemorySpill.ReadAt(p[:len(p)-1], off)
	return n, nil
}

// TestSpillErrors: a spill that fails to write or to read back makes Run
// return a SpillError naming the operation and the offset, without a
// report (and without a panic).
func TestSpillErrors(t *testing.T) {
	log := corpusLog(t, "Tx_BasicPerfCounters.blg")
	for _, tc := range []struct {
		name string
		sp   SpillFile
		want string
	}{
		{"write at 0", &failSpill{writeFrom: 0}, "analysis: writing the values' spill file: 64 bytes at offset 0: no space left on device"},
		{"write later", &failSpill{writeFrom: 640}, "analysis: writing the values' spill file: 64 bytes at offset 640: no space left on device"},
		{"read", &failSpill{writeFrom: -1, failRead: true}, "analysis: reading the values' spill file: 64 bytes at offset "},
		{"short read", &shortSpill{}, "analysis: reading the values' spill file: 64 bytes at offset "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, compat := range []bool{false, true} {
				// 512 bytes: chunks of one value, 64 of them in memory.
				r, err := Run(open(t, log), benchSet(), Options{PALCompat: compat, Spill: tc.sp, Budget: 8 * 64 * 8})
				var se *SpillError
				if r != nil || !errors.As(err, &se) || !strings.HasPrefix(err.Error(), tc.want) {
					t.Fatalf("compat=%v: have %v, %v; want no report and %q", compat, r != nil, err, tc.want)
				}
				if tc.name != "short read" && !errors.Is(err, errDisk) {
					t.Errorf("the error does not wrap the spill's: %v", err)
				}
				if tc.name == "short read" && !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Errorf("a short read: have %v, want io.ErrUnexpectedEOF", err)
				}
			}
		})
	}
}

// TestPropSpillBudget: any budget gives the report of the values all in
// memory.
func TestPropSpillBudget(t *testing.T) {
	props := gopter.NewProperties(propParameters(150))
	props.Property("any budget, the same report", prop.ForAll(func(seed int64, budget uint16, th uint8, compat bool) bool {
		l := newRandomLog(seed, true)
		log := l.bytes(0, len(l.raws))
		set := oneAnalysis(`\Obj(*)\Ctr`,
			Threshold{Name: "w", Condition: Warning, Priority: 50, Operator: Greater, Value: float64(th % 101)})
		want, wantErr := runJSON(t, log, set, Options{PALCompat: compat})
		have, haveErr := runJSON(t, log, set, Options{PALCompat: compat, Spill: &openmetrics.MemorySpill{}, Budget: int(budget)})
		return want != nil && bytes.Equal(have, want) && haveErr == wantErr
	}, gen.Int64(), gen.UInt16Range(0, 4000), gen.UInt8(), gen.Bool()))
	props.TestingRun(t)
}
