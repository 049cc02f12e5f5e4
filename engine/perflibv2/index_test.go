package perflibv2_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// sameAsFill checks that Index.Fill gives what Fill gives for every
// selector around every block, row and counter id of data (and a few that
// do not exist), and returns the number of selectors compared.
func sameAsFill(t *testing.T, x *perflibv2.Index, data []byte, reg *perflibv2.RegInfo, ids []uint32) int {
	t.Helper()
	buildErr := x.Reset(data, reg, ids)
	// The selectors: every block (and -1, n, n+1), every row (and -1,
	// rows), every counter id of the block, of ids and of reg, and one
	// unknown id.
	var cand []uint32
	for i := range reg.Len() {
		cand = append(cand, reg.Counter(i).CounterID)
	}
	cand = append(cand, ids...)
	cand = append(cand, 0xFFFFFFFF, 12345)
	type blockInfo struct{ rows int }
	var blocks []blockInfo
	var p perflibv2.Parser
	var walkErr error
	if _, err := p.Start(data); err != nil {
		walkErr = err
	} else {
		for p.Next() {
			b := p.Block()
			bi := blockInfo{rows: b.NumRows()}
			for k := range b.NumCounters() {
				if id, ok := b.CounterID(k); ok {
					cand = append(cand, id)
				}
			}
			blocks = append(blocks, bi)
		}
		if err := p.Err(); err != nil {
			walkErr = err
			blocks = append(blocks, blockInfo{rows: 2})
		}
	}
	if (buildErr == nil) != (walkErr == nil) || buildErr != nil && buildErr.Error() != walkErr.Error() {
		t.Fatalf("Reset: have %v, want %v", buildErr, walkErr)
	}
	n := 0
	for bi := -1; bi <= len(blocks)+1; bi++ {
		rows := 1
		if bi >= 0 && bi < len(blocks) {
			rows = blocks[bi].rows
		}
		for ri := -1; ri <= rows; ri++ {
			for _, id := range cand {
				sentinel := engine.Input{Counter: engine.Counter{Type: 7, Scale: 3, TimeBase: 11},
					New:    engine.RawCounter{FirstValue: 13, SecondValue: 17, MultiCount: 19, CStatus: 23, TimeStamp: 29},
					HasOld: true, Old: engine.RawCounter{FirstValue: 31}}
				want, have := sentinel, sentinel
				wok, werr := perflibv2.Fill(&want, data, reg, perflibv2.Selector{Block: bi, Row: ri, CounterID: id, IDs: ids})
				hok, herr := x.Fill(&have, bi, ri, id)
				n++
				if hok != wok || (herr == nil) != (werr == nil) || herr != nil && herr.Error() != werr.Error() || have != want {
					t.Fatalf("block %d row %d id %d: Index.Fill gives %v, %v, %+v;\nFill gives %v, %v, %+v", bi, ri, id, hok, herr, have, wok, werr, want)
				}
			}
		}
	}
	// Lookup is RegInfo.Lookup.
	for _, id := range cand {
		hc, hok := x.Lookup(id)
		wc, wok := reg.Lookup(id)
		if hc != wc || hok != wok {
			t.Fatalf("Lookup(%d): have %+v %v, want %+v %v", id, hc, hok, wc, wok)
		}
	}
	return n
}

func TestIndexFixtures(t *testing.T) {
	reg, err := perflibv2.ParseRegInfo(mustRegInfo(t, processorSet()))
	if err != nil {
		t.Fatal(err)
	}
	data := pairData(t, 0)
	var x perflibv2.Index // reused across fixtures
	for _, ids := range [][]uint32{nil, {8, 0xFFFFFFFF, 1, 2, 1, 2, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF}, {8, 1, 2}, {1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1}} {
		sameAsFill(t, &x, data, &reg, ids)
		// Malformed: a short result, a bad header, a bad block in the
		// middle (blocks before it stay readable), a bad last block.
		sameAsFill(t, &x, data[:40], &reg, ids)
		sameAsFill(t, &x, put32(data, 0, 7), &reg, ids)
		var p perflibv2.Parser
		p.Start(data)
		for p.Next() {
			b := p.Block()
			sameAsFill(t, &x, put32(data, b.Offset+8, 8), &reg, ids)
			sameAsFill(t, &x, put32(data, b.Offset+4, 3), &reg, ids)
		}
	}
	// An empty registration, and a nil one for the index alone.
	var empty perflibv2.RegInfo
	sameAsFill(t, &x, data, &empty, nil)
	if err := x.Reset(data, nil, nil); err != nil {
		t.Fatal(err)
	}
	if ok, err := x.Fill(&engine.Input{}, 1, 0, 0); ok || err != nil {
		t.Errorf("nil registration: have %v, %v, want false, nil", ok, err)
	}
	// The zero Index is empty.
	var zero perflibv2.Index
	if ok, err := zero.Fill(&engine.Input{}, 0, 0, 0); ok || err != nil {
		t.Errorf("zero Index: have %v, %v, want false, nil", ok, err)
	}
}

// TestIndexCorpus compares on the project's V2 captures.
func TestIndexCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "corpus")
	regBytes, err := os.ReadFile(filepath.Join(dir, "v2-reginfo.bin"))
	if err != nil {
		t.Skip(err)
	}
	reg, err := perflibv2.ParseRegInfo(regBytes)
	if err != nil {
		t.Fatal(err)
	}
	var x perflibv2.Index
	for _, name := range []string{"v2-data-1.bin", "v2-data-2.bin"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, ids := range [][]uint32{nil, regIDs(&reg), {0, 0, 0, 0, 0, 0, 0, 0}} {
			n += sameAsFill(t, &x, data, &reg, ids)
		}
		t.Logf("%s: %d selectors", name, n)
	}
}

func regIDs(reg *perflibv2.RegInfo) []uint32 {
	var ids []uint32
	for i := range reg.Len() {
		ids = append(ids, reg.Counter(i).CounterID)
	}
	return ids
}

// helperTypes are counter types of every pairing kind: plain, tick and
// 100 ns timers, bases, object timers, multi timers, precision types.
var helperTypes = []engine.CounterType{
	engine.CounterRawcount, engine.CounterLargeRawcount, engine.CounterCounter, engine.Timer100ns,
	engine.RawFraction, engine.RawBase, engine.AverageTimer, engine.AverageBase, engine.ObjTimeTimer,
	engine.ElapsedTime, engine.MultiTimer100ns, engine.CounterMultiTimer, engine.CounterMultiBase,
	engine.SampleFraction, engine.SampleBase, engine.Precision100nsTimer, engine.PrecisionObjectTimer,
	engine.CounterTimer, engine.CounterTimerInv, engine.Timer100nsInv, engine.MultiTimer100nsInv,
}

// randomFixture builds a random registration and result over a few
// counter ids and instance names, so that helpers, duplicates and missing
// counters are all frequent.
func randomFixture(t testing.TB, r *rand.Rand) (regBytes, data []byte, ids []uint32) {
	const nids = 8
	pick := func() uint32 {
		if r.IntN(6) == 0 {
			return perflibv2.NoCounter
		}
		return uint32(r.IntN(nids + 1)) // nids is never registered
	}
	set := &encode.V2CounterSet{}
	for range r.IntN(nids + 2) {
		set.Counters = append(set.Counters, encode.V2CounterRegInfo{
			CounterID: uint32(r.IntN(nids)), Type: helperTypes[r.IntN(len(helperTypes))], DefaultScale: int32(r.IntN(5) - 2),
			BaseCounterID: pick(), PerfTimeID: pick(), PerfFreqID: pick(), MultiID: pick(),
		})
	}
	names := []string{"", "a", "b", "_Total", "a/b", "A"}
	value := func() encode.V2Value {
		size := []uint32{4, 8, 8, 4, 0, 2, 1}[r.IntN(7)]
		return encode.V2Value{Size: size, Value: r.Uint64() & (1<<(8*size) - 1)}
	}
	d := &encode.V2Data{PerfTimeStamp: r.Int64N(1 << 40), PerfTime100NSec: r.Int64N(1 << 60), PerfFreq: r.Int64N(1 << 30)}
	for range r.IntN(8) {
		b := encode.V2CounterBlock{Type: []uint32{encode.V2ErrorReturn, encode.V2SingleCounter, encode.V2MultipleCounters, encode.V2MultipleInstances, encode.V2Counterset}[r.IntN(5)]}
		if r.IntN(5) == 0 {
			b.Status = uint32(r.IntN(3))
		}
		nc := 1
		if b.Type == encode.V2MultipleCounters || b.Type == encode.V2Counterset {
			nc = r.IntN(6)
			for range nc {
				b.CounterIDs = append(b.CounterIDs, uint32(r.IntN(nids+1)))
			}
		}
		switch b.Type {
		case encode.V2SingleCounter, encode.V2MultipleCounters:
			row := encode.V2Row{}
			for range nc {
				row.Values = append(row.Values, value())
			}
			b.Rows = []encode.V2Row{row}
		case encode.V2MultipleInstances, encode.V2Counterset:
			for range r.IntN(5) {
				row := encode.V2Row{InstanceID: uint32(r.IntN(3)), Name: names[r.IntN(len(names))]}
				for range nc {
					row.Values = append(row.Values, value())
				}
				b.Rows = append(b.Rows, row)
			}
		}
		d.Blocks = append(d.Blocks, b)
	}
	for range r.IntN(len(d.Blocks) + 2) {
		ids = append(ids, pick())
	}
	regBytes = mustRegInfo(t, set)
	data = mustEncode(t, d)
	return regBytes, data, ids
}

func TestIndexRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 11))
	var x perflibv2.Index
	n := 0
	for i := range 3000 {
		regBytes, data, ids := randomFixture(t, r)
		reg, err := perflibv2.ParseRegInfo(regBytes)
		if err != nil {
			t.Fatal(err)
		}
		if i%4 == 3 && len(data) > 48 {
			// Corrupt a DWORD: blocks after it become unreadable.
			off := 48 + 4*r.IntN((len(data)-48)/4)
			data = put32(data, off, []uint32{0, 1, 3, 7, 8, 0xFFFFFFFF, uint32(len(data))}[r.IntN(7)])
		}
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			n += sameAsFill(t, &x, data, &reg, ids)
		})
	}
	t.Logf("%d selectors compared", n)
}

// bigResult is a ~700 KB PERF_COUNTERSET result of about 40,000 values
// (20 counters, a base among them, 2,000 instances) and its registration.
func bigResult(t testing.TB) (data []byte, reg perflibv2.RegInfo) {
	const none = perflibv2.NoCounter
	set := &encode.V2CounterSet{}
	ids := make([]uint32, 20)
	for i := range ids {
		ids[i] = uint32(i)
		c := encode.V2CounterRegInfo{CounterID: uint32(i), Type: engine.CounterCounter, BaseCounterID: none, PerfTimeID: none, PerfFreqID: none, MultiID: none}
		switch i % 5 {
		case 1:
			c.Type, c.BaseCounterID = engine.RawFraction, uint32(i+1)
		case 2:
			c.Type = engine.RawBase
		case 3:
			c.Type, c.PerfTimeID, c.PerfFreqID = engine.ObjTimeTimer, 18, 19
		}
		set.Counters = append(set.Counters, c)
	}
	rows := make([]encode.V2Row, 2000)
	for i := range rows {
		vals := make([]encode.V2Value, len(ids))
		for j := range vals {
			vals[j] = encode.V2Value{Size: 8, Value: uint64(i*j + 1)}
		}
		rows[i] = encode.V2Row{InstanceID: uint32(i), Name: "instance " + strconv.Itoa(i), Values: vals}
	}
	data = mustEncode(t, &encode.V2Data{PerfFreq: 10_000_000, Blocks: []encode.V2CounterBlock{
		{Type: encode.V2Counterset, CounterIDs: ids, Rows: rows},
	}})
	reg, err := perflibv2.ParseRegInfo(mustRegInfo(t, set))
	if err != nil {
		t.Fatal(err)
	}
	return data, reg
}

// BenchmarkFillAll fills every value of a ~700 KB, 40,000-value result,
// with Fill per value and with an Index; ns/value is per value filled.
func BenchmarkFillAll(b *testing.B) {
	data, reg := bigResult(b)
	const rows, counters = 2000, 20
	b.Logf("result: %d bytes, %d values", len(data), rows*counters)
	var in engine.Input
	b.Run("Fill", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			for r := range rows {
				for c := range counters {
					if ok, err := perflibv2.Fill(&in, data, &reg, perflibv2.Selector{Block: 0, Row: r, CounterID: uint32(c)}); !ok || err != nil {
						b.Fatal(ok, err)
					}
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows*counters), "ns/value")
	})
	for _, fresh := range []bool{false, true} {
		name := "Index"
		if fresh {
			name = "IndexFresh" // a new Index (new storage) for each result
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var x perflibv2.Index
			for range b.N {
				if fresh {
					x = perflibv2.Index{}
				}
				if err := x.Reset(data, &reg, nil); err != nil {
					b.Fatal(err)
				}
				for r := range rows {
					for c := range counters {
						if ok, err := x.Fill(&in, 0, r, uint32(c)); !ok || err != nil {
							b.Fatal(ok, err)
						}
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows*counters), "ns/value")
		})
	}
}

// TestIndexSameOnBig compares a sample of the big result's values (Fill
// on all of them takes seconds).
func TestIndexSameOnBig(t *testing.T) {
	data, reg := bigResult(t)
	var x perflibv2.Index
	if err := x.Reset(data, &reg, nil); err != nil {
		t.Fatal(err)
	}
	for r := 0; r < 2000; r += 97 {
		for c := range 21 {
			var want, have engine.Input
			wok, werr := perflibv2.Fill(&want, data, &reg, perflibv2.Selector{Row: r, CounterID: uint32(c)})
			hok, herr := x.Fill(&have, 0, r, uint32(c))
			if wok != hok || werr != herr || want != have {
				t.Fatalf("row %d counter %d: have %v %v %+v, want %v %v %+v", r, c, hok, herr, have, wok, werr, want)
			}
		}
	}
}

func TestIndexAllocs(t *testing.T) {
	data, reg := bigResult(t)
	var x perflibv2.Index
	if err := x.Reset(data, &reg, nil); err != nil {
		t.Fatal(err)
	}
	var in engine.Input
	var sum uint64
	allocs := testing.AllocsPerRun(5, func() {
		if err := x.Reset(data, &reg, nil); err != nil {
			panic(err)
		}
		for r := range 2000 {
			for c := range 20 {
				if ok, err := x.Fill(&in, 0, r, uint32(c)); !ok || err != nil {
					panic("Fill failed")
				}
				sum += in.New.FirstValue + in.New.SecondValue
			}
		}
	})
	if allocs != 0 {
		t.Errorf("Reset (storage reused) and 40,000 Fills: have %v allocs per run, want 0", allocs)
	}
	if sum == 0 {
		t.Error("Fill read nothing")
	}
}

// TestIndexHostile builds indexes of results whose records are as many
// and as small as the format allows: the work must stay about linear in
// the size (a quadratic build would take minutes here).
func TestIndexHostile(t *testing.T) {
	reg, err := perflibv2.ParseRegInfo(mustRegInfo(t, processorSet()))
	if err != nil {
		t.Fatal(err)
	}
	const n = 40_000
	manyIDs := make([]uint32, n)
	for i := range manyIDs {
		manyIDs[i] = uint32(i % 13) // every id a helper, each repeated
	}
	oneRow := func(k int) encode.V2Row {
		r := encode.V2Row{}
		for range k {
			r.Values = append(r.Values, encode.V2Value{Size: 4, Value: 1})
		}
		return r
	}
	sameRows := make([]encode.V2Row, n)
	for i := range sameRows {
		sameRows[i] = encode.V2Row{InstanceID: 1, Name: "x", Values: []encode.V2Value{{Size: 4, Value: uint64(i)}}}
	}
	var singles []encode.V2CounterBlock
	for range n {
		singles = append(singles, encode.V2CounterBlock{Type: encode.V2SingleCounter, Rows: []encode.V2Row{oneRow(1)}})
	}
	var errs []encode.V2CounterBlock
	for range n {
		errs = append(errs, encode.V2CounterBlock{Type: encode.V2ErrorReturn, Status: 5})
	}
	for _, tc := range []struct {
		name   string
		blocks []encode.V2CounterBlock
		ids    []uint32 // block ids for the single counter blocks
		values func(x *perflibv2.Index, in *engine.Input)
	}{
		{"one row of 40,000 counters", []encode.V2CounterBlock{{Type: encode.V2MultipleCounters, CounterIDs: manyIDs, Rows: []encode.V2Row{oneRow(n)}}}, nil,
			func(x *perflibv2.Index, in *engine.Input) {
				for i := range n {
					x.Fill(in, 0, 0, uint32(i%13))
				}
			}},
		{"40,000 identical instances", []encode.V2CounterBlock{
			{Type: encode.V2MultipleInstances, Rows: sameRows}, {Type: encode.V2MultipleInstances, Rows: sameRows}}, []uint32{1, 2},
			func(x *perflibv2.Index, in *engine.Input) {
				for i := range n {
					x.Fill(in, 0, i, 1)
					x.Fill(in, 1, i, 2)
				}
			}},
		{"40,000 single counter blocks", singles, manyIDs, func(x *perflibv2.Index, in *engine.Input) {
			for i := range n {
				x.Fill(in, i, 0, uint32(i%13))
			}
		}},
		{"40,000 error blocks", errs, manyIDs, func(x *perflibv2.Index, in *engine.Input) {
			for i := range n {
				x.Fill(in, i, 0, uint32(i%13))
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := mustEncode(t, &encode.V2Data{Blocks: tc.blocks})
			var x perflibv2.Index
			var in engine.Input
			start := time.Now()
			if err := x.Reset(data, &reg, tc.ids); err != nil {
				t.Fatal(err)
			}
			tc.values(&x, &in)
			// Linear work takes milliseconds and a quadratic build minutes:
			// 20 s tells them apart on a machine under any load (2 s did not,
			// with a dozen processes sharing two cores).
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("%d bytes: %v to index and fill every value", len(data), d)
			}
			// The storage of a new Index is sized by what the result holds.
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			var fresh perflibv2.Index
			fresh.Reset(data, &reg, tc.ids)
			runtime.ReadMemStats(&after)
			if n := after.TotalAlloc - before.TotalAlloc; n > 3*uint64(len(data))+4096 {
				t.Errorf("%d bytes: the index allocated %d bytes, more than 3 per byte", len(data), n)
			} else {
				t.Logf("%d bytes: the index allocated %d bytes", len(data), n)
			}
			// A sample agrees with Fill.
			for _, bi := range []int{0, 1, len(tc.blocks) - 1} {
				for _, ri := range []int{0, 1, n - 1} {
					for _, id := range []uint32{0, 1, 2, 3, 6, 10} {
						var want, have engine.Input
						wok, werr := perflibv2.Fill(&want, data, &reg, perflibv2.Selector{Block: bi, Row: ri, CounterID: id, IDs: tc.ids})
						hok, herr := x.Fill(&have, bi, ri, id)
						if wok != hok || werr != herr || want != have {
							t.Fatalf("block %d row %d id %d: have %v %v %+v, want %v %v %+v", bi, ri, id, hok, herr, have, wok, werr, want)
						}
					}
				}
			}
		})
	}
	// A header claiming more blocks than it holds is refused before any
	// storage is sized.
	data := mustEncode(t, &encode.V2Data{Blocks: singles[:4]})
	data = put32(data, 4, 0xFFFFFFFF)
	var x perflibv2.Index
	if err := x.Reset(data, &reg, nil); !isFormatError(err) {
		t.Errorf("dwNumCounters 0xFFFFFFFF: have %v, want a FormatError", err)
	}
}

// FuzzIndex checks Index.Fill against Fill on arbitrary results, with a
// registration of every pairing kind and consumer ids taken from the input.
func FuzzIndex(f *testing.F) {
	f.Add(pairData(f, 0), uint8(0))
	f.Add(pairData(f, 0), uint8(9))
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		_, data, _ := randomFixture(f, r)
		f.Add(data, uint8(r.IntN(256)))
	}
	regBytes := mustRegInfo(f, processorSet())
	f.Fuzz(func(t *testing.T, data []byte, nids uint8) {
		reg, err := perflibv2.ParseRegInfo(regBytes)
		if err != nil {
			t.Fatal(err)
		}
		var ids []uint32
		if nids&1 != 0 {
			for i := range int(nids >> 1) {
				ids = append(ids, uint32(i*7%15)) // 0 to 14, 13 and 14 not registered
			}
		}
		if len(data) > 4096 {
			return // Fill for every selector is slow
		}
		var x perflibv2.Index
		sameAsFill(t, &x, data, &reg, ids)
	})
}
