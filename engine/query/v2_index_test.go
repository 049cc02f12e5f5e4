package query_test

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// v2RandomTypes are counter types of every pairing kind.
var v2RandomTypes = []engine.CounterType{
	engine.CounterRawcount, engine.CounterLargeRawcount, engine.CounterCounter, engine.Timer100ns,
	engine.RawFraction, engine.RawBase, engine.AverageTimer, engine.AverageBase, engine.ObjTimeTimer,
	engine.ElapsedTime, engine.MultiTimer100ns, engine.CounterMultiTimer, engine.CounterMultiBase,
	engine.SampleFraction, engine.SampleBase, engine.Precision100nsTimer, engine.PrecisionObjectTimer,
	engine.CounterTimer, engine.Timer100nsInv,
}

// v2RandomCase builds a random registration, two samples of one random
// result structure (instances come and go, blocks fail now and then, a
// DWORD is sometimes corrupted) and random consumer ids.
func v2RandomCase(t testing.TB, r *rand.Rand) (reg *perflibv2.RegInfo, older, newer []byte, ids []uint32) {
	const nids = 8
	pick := func() uint32 {
		if r.IntN(6) == 0 {
			return none
		}
		return uint32(r.IntN(nids + 1))
	}
	set := &encode.V2CounterSet{GUID: [16]byte{9, 8, 7}}
	for k := range nids + r.IntN(3) {
		id := uint32(k)
		if k >= nids || r.IntN(8) == 0 {
			id = uint32(r.IntN(nids)) // a duplicate; nids is never registered
		}
		set.Counters = append(set.Counters, encode.V2CounterRegInfo{
			CounterID: id, Type: v2RandomTypes[r.IntN(len(v2RandomTypes))], DefaultScale: int32(r.IntN(5) - 2),
			BaseCounterID: pick(), PerfTimeID: pick(), PerfFreqID: pick(), MultiID: pick(),
		})
	}
	regData, err := encode.EncodeV2RegInfo(set)
	if err != nil {
		t.Fatal(err)
	}
	ri, err := perflibv2.ParseRegInfo(regData)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"", "a", "b", "_Total", "a/b", "A", "p/a"}
	type shape struct {
		typ   uint32
		ids   []uint32
		insts []int
	}
	var shapes []shape
	for range r.IntN(6) {
		s := shape{typ: []uint32{encode.V2ErrorReturn, encode.V2SingleCounter, encode.V2MultipleCounters, encode.V2MultipleInstances, encode.V2Counterset}[r.IntN(5)]}
		if s.typ == encode.V2MultipleCounters || s.typ == encode.V2Counterset {
			for range r.IntN(6) {
				s.ids = append(s.ids, uint32(r.IntN(nids+1)))
			}
		}
		if s.typ == encode.V2MultipleInstances || s.typ == encode.V2Counterset {
			for range r.IntN(7) {
				s.insts = append(s.insts, r.IntN(len(names)))
			}
		}
		shapes = append(shapes, s)
	}
	sample := func(sec int64) []byte {
		d := &encode.V2Data{PerfTimeStamp: sec * 1000, PerfFreq: 1000, PerfTime100NSec: sec * 10_000_000}
		value := func() encode.V2Value {
			size := []uint32{4, 8, 8, 4, 0, 2}[r.IntN(6)]
			return encode.V2Value{Size: size, Value: r.Uint64N(1<<16) & (1<<(8*size) - 1)}
		}
		for _, s := range shapes {
			b := encode.V2CounterBlock{Type: s.typ, CounterIDs: s.ids}
			if r.IntN(8) == 0 {
				b = encode.V2CounterBlock{Type: encode.V2ErrorReturn, Status: 5}
			}
			if r.IntN(8) == 0 {
				b.Status = 1
			}
			nc := len(s.ids)
			if !(b.Type == encode.V2MultipleCounters || b.Type == encode.V2Counterset) {
				nc = 1
			}
			switch b.Type {
			case encode.V2SingleCounter, encode.V2MultipleCounters:
				row := encode.V2Row{}
				for range nc {
					row.Values = append(row.Values, value())
				}
				b.Rows = []encode.V2Row{row}
			case encode.V2MultipleInstances, encode.V2Counterset:
				for k, n := range s.insts {
					if r.IntN(6) == 0 {
						continue // an instance gone
					}
					row := encode.V2Row{InstanceID: uint32(k % 2), Name: names[n]}
					for range nc {
						row.Values = append(row.Values, value())
					}
					b.Rows = append(b.Rows, row)
				}
			}
			d.Blocks = append(d.Blocks, b)
		}
		data, err := encode.EncodeV2Data(d)
		if err != nil {
			t.Fatal(err)
		}
		if r.IntN(10) == 0 && len(data) > 48 {
			off := 48 + 4*r.IntN((len(data)-48)/4)
			binary.LittleEndian.PutUint32(data[off:], []uint32{0, 1, 3, 8, 0xFFFFFFFF}[r.IntN(5)])
		}
		return data
	}
	older, newer = sample(10), sample(12)
	if r.IntN(5) == 0 {
		older = nil
	}
	for range len(shapes) + r.IntN(3) - 1 {
		ids = append(ids, pick())
	}
	return &ri, older, newer, ids
}

// v2RandomGolden is the digest of TestV2RandomGolden's results as the
// Fill-per-value implementation of the V2 path (before Index) gave them.
// A deliberate change to the V2 path, engine.Compute or path formatting
// changes it too: check the change, then update it.
const v2RandomGolden = "00216db6faa80eb1b8da8f11b805301be375263d9690642bb71a95a2f8c1795b"

// TestV2RandomGolden runs queries on random V2 captures and compares a
// digest of every result (paths, types, values, statuses, errors) with the
// one the previous implementation gave: pairing through perflibv2.Index
// must not change a bit.
func TestV2RandomGolden(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 2026))
	h := sha256.New()
	var buf []byte
	nvals, nerrs := 0, 0
	for i := range 4000 {
		reg, older, newer, ids := v2RandomCase(t, r)
		q := query.New(query.Config{RegInfo: reg, IDs: ids, Options: engine.Options(r.IntN(4))})
		vals, err := q.Run(nil, older, newer)
		buf = strconv.AppendInt(buf[:0], int64(i), 10)
		if err != nil {
			nerrs++
			buf = append(buf, err.Error()...)
		}
		buf = strconv.AppendInt(append(buf, ' '), int64(q.Unnamed()), 10)
		for _, v := range vals {
			buf = append(append(buf, '\n'), v.Path...)
			buf = strconv.AppendUint(append(buf, ' '), uint64(v.Type), 16)
			buf = strconv.AppendInt(append(buf, ' '), int64(v.Scale), 10)
			buf = strconv.AppendUint(append(buf, ' '), uint64(v.DetailLevel), 10)
			buf = strconv.AppendUint(append(buf, ' '), math.Float64bits(v.Value), 16)
			buf = strconv.AppendInt(append(buf, ' '), int64(v.Status), 10)
			buf = strconv.AppendBool(append(buf, ' '), v.HasOld)
		}
		nvals += len(vals)
		h.Write(buf)
	}
	have := hex.EncodeToString(h.Sum(nil))
	t.Logf("%d values, %d errors, digest %s", nvals, nerrs, have)
	if have != v2RandomGolden {
		t.Errorf("digest: have %s, want %s", have, v2RandomGolden)
	}
}

// v2Big builds two ~700 KB PERF_COUNTERSET samples of about 40,000 values:
// 20 counters (rates, fractions with their bases, object timers) of 2,000
// instances.
func v2Big(t testing.TB) (reg *perflibv2.RegInfo, older, newer []byte) {
	set := &encode.V2CounterSet{GUID: [16]byte{1}}
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
	regData, err := encode.EncodeV2RegInfo(set)
	if err != nil {
		t.Fatal(err)
	}
	ri, err := perflibv2.ParseRegInfo(regData)
	if err != nil {
		t.Fatal(err)
	}
	sample := func(sec int64) []byte {
		rows := make([]encode.V2Row, 2000)
		for i := range rows {
			vals := make([]encode.V2Value, len(ids))
			for j := range vals {
				vals[j] = encode.V2Value{Size: 8, Value: uint64(sec)*uint64(i*j+1) + 1}
			}
			rows[i] = encode.V2Row{InstanceID: uint32(i), Name: "instance " + strconv.Itoa(i), Values: vals}
		}
		data, err := encode.EncodeV2Data(&encode.V2Data{PerfFreq: 1000, PerfTimeStamp: sec * 1000, PerfTime100NSec: sec * 10_000_000,
			Blocks: []encode.V2CounterBlock{{Type: encode.V2Counterset, CounterIDs: ids, Rows: rows}}})
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	return &ri, sample(10), sample(12)
}

// BenchmarkV2Query700KB runs a query of every counter of two ~700 KB
// samples; ns/value is per value computed.
func BenchmarkV2Query700KB(b *testing.B) {
	reg, older, newer := v2Big(b)
	q := query.New(query.Config{RegInfo: reg})
	vals, err := q.Run(nil, older, newer)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%d bytes per sample, %d values", len(newer), len(vals))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if vals, err = q.Run(vals[:0], older, newer); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(vals)), "ns/value")
}

// TestV2QueryBig checks that a query of every counter of two ~700 KB
// samples takes well under a second (Fill per value took about 20 s; the
// bound, 8 s, tells the two apart under heavy load) and allocates nothing
// once the Query has run.
func TestV2QueryBig(t *testing.T) {
	reg, older, newer := v2Big(t)
	q := query.New(query.Config{RegInfo: reg})
	start := time.Now()
	vals, err := q.Run(nil, older, newer)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("%d values: %v", len(vals), d)
	}
	if len(vals) != 2000*16 {
		t.Errorf("have %d values, want %d (base counters excepted)", len(vals), 2000*16)
	}
	if a := testing.AllocsPerRun(3, func() { vals, err = q.Run(vals[:0], older, newer) }); a != 0 || err != nil {
		t.Errorf("Run again: have %v allocs, %v; want 0, nil", a, err)
	}
}
