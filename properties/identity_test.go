package properties

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

// processLog is a raw-record log of random processes: a few names shared
// by several processes (PDH numbers them name#1, … in their order), each
// alive over a random range of samples, with \Process(*)\% Processor
// Time, ID Process and Creating Process ID. It returns the log and the
// number of identity breaks, counted here from the processes' PDH names.
func processLog(seed int64) ([]byte, int64) {
	r := rand.New(rand.NewSource(seed))
	samples := 2 + r.Intn(7)
	type proc struct {
		name              string
		pid, creator      uint64
		born, dies, speed int
	}
	var procs []proc
	for i := range 1 + r.Intn(6) {
		born := r.Intn(samples)
		procs = append(procs, proc{name: []string{"a", "b"}[r.Intn(2)], pid: uint64(100 + 4*i), creator: uint64(1 + r.Intn(2)),
			born: born, dies: born + 1 + r.Intn(samples), speed: 1 + r.Intn(50)})
	}
	const local = 130057734178440000
	l := blgbuild.New(1<<16, local)
	var list []byte
	for _, c := range []string{"% Processor Time", "ID Process", "Creating Process ID"} {
		typ := uint32(0x00010000)
		if c == "% Processor Time" {
			typ = 0x20510500
		}
		list = blgbuild.AppendCounterList(list, blgbuild.Counter{Flags: 1, Type: typ, TimeBase: 10_000_000, Machine: `\\HOST`, Object: "Process", Instance: "*", Counter: c})
	}
	l.Record(blgbuild.EventCounterList, local, list, 8000)
	var breaks int64
	prev := map[string]uint64{} // PDH name → pid in the previous sample
	for s := range samples {
		ts := int64(local + s*10_000_000)
		var names []string
		var cpu, ids, creators []uint64
		cur := map[string]uint64{}
		seen := map[string]int{}
		for _, p := range procs {
			if s < p.born || s >= p.dies {
				continue
			}
			names = append(names, p.name)
			cpu = append(cpu, uint64(p.speed*100_000*(s-p.born)))
			ids, creators = append(ids, p.pid), append(creators, p.creator)
			pdh := p.name
			if n := seen[p.name]; n > 0 {
				pdh += "#" + strconv.Itoa(n)
			}
			seen[p.name]++
			cur[pdh] = p.pid
			if old, ok := prev[pdh]; ok && old != p.pid {
				breaks++
			}
		}
		prev = cur
		rec := []byte{'B', 'L', 3, 0, 0, 0, 0, 0}
		for _, vals := range [][]uint64{cpu, ids, creators} {
			units := make([][]uint16, len(names))
			for i, n := range names {
				for _, c := range n {
					units[i] = append(units[i], uint16(c))
				}
			}
			rec = append(rec, blgbuild.MultiSubRecord(ts, units, vals)...)
		}
		binary.LittleEndian.PutUint32(rec[4:], uint32(len(rec)))
		l.Record(blgbuild.EventSample, ts, rec, 8000)
	}
	return l.Bytes(), breaks
}

// identityCells returns, per row, the cells of the log's Process columns
// as "counter raw status value" texts, sorted: what the row holds whatever
// the columns' names.
func identityCells(log []byte, id identity.Mode) ([][]string, *relog.Converter, error) {
	c, err := relog.New(bytes.NewReader(log), int64(len(log)), relog.Options{Identity: id})
	if err != nil {
		return nil, nil, err
	}
	var rows [][]string
	for c.Next() {
		var row []string
		for i, cell := range c.Row().Cells {
			if cell.Present {
				row = append(row, fmt.Sprint(c.Columns()[i].Parts.Counter, cell.Raw.FirstValue, cell.Result.Status, math.Float64bits(cell.Result.Value)))
			}
		}
		slices.Sort(row)
		rows = append(rows, row)
	}
	return rows, c, c.Err()
}

// TestPropertiesIdentityAgree: on logs of random processes, --identity pid
// counts the breaks that PDH's numbering makes (counted independently
// here), every pid-mode series holds one process (its ID Process is its
// name's pid), and where there is no break the two modes give every row
// the same values (the series are named otherwise only).
func TestPropertiesIdentityAgree(t *testing.T) {
	without := 0
	params := parameters()
	params.MinSuccessfulTests = cases(1000) // a log each, two readings
	p := gopter.NewProperties(params)
	p.Property("pid and pdh agree without breaks", prop.ForAll(func(seed int64) bool {
		log, breaks := processLog(seed)
		pdh, _, err := identityCells(log, identity.PDH)
		if err != nil {
			t.Log(err)
			return false
		}
		pid, c, err := identityCells(log, identity.PID)
		if err != nil || c.IdentityBreaks() != breaks {
			t.Logf("seed %d: %v, breaks %d, want %d", seed, err, c.IdentityBreaks(), breaks)
			return false
		}
		if !onePID(log) {
			t.Logf("seed %d: a pid-mode series holds two processes", seed)
			return false
		}
		if breaks > 0 {
			return true
		}
		without++
		if !slices.EqualFunc(pdh, pid, slices.Equal[[]string]) {
			t.Logf("seed %d: the modes differ without a break:\n%q\n%q", seed, pdh, pid)
			return false
		}
		return true
	}, gen.Int64()))
	p.TestingRun(t)
	if without < cases(1000)/10 {
		t.Errorf("only %d logs without a break", without)
	}
}

// onePID reports whether every pid-mode ID Process series of the log holds
// the pid its instance name carries, in every row.
func onePID(log []byte) bool {
	c, err := relog.New(bytes.NewReader(log), int64(len(log)), relog.Options{Identity: identity.PID})
	if err != nil {
		return false
	}
	for c.Next() {
		for i, cell := range c.Row().Cells {
			col := &c.Columns()[i]
			if !cell.Present || col.Parts.Counter != "ID Process" {
				continue
			}
			inst := col.Parts.Instance
			if !strings.HasSuffix(inst, ":"+strconv.FormatUint(cell.Raw.FirstValue, 10)) {
				return false
			}
		}
	}
	return c.Err() == nil
}
