package fuzz

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/engine/wintype"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/describe"
	"github.com/perfcalc/perfcalc/tools/encode"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
	"github.com/perfcalc/perfcalc/tools/hostile"
)

// pdRealBlocks returns the real V1 blocks of ../shared/corpus/v1, or none
// where that folder is absent (the fuzz targets then run on encoded seeds
// alone).
func pdRealBlocks(tb testing.TB) [][]byte {
	root := corpus.Root()
	if root == "" {
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(root), "shared", "corpus", "v1", "s*_obj*.bin"))
	var out [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}

// pdSeedBlobs returns encoded blobs covering every NumInstances case, code
// pages, parents, shared offsets, multi timers and bases.
func pdSeedBlobs(tb testing.TB) [][]byte {
	c := func(t engine.CounterType, size uint32) encode.V1Counter {
		return encode.V1Counter{CounterNameTitleIndex: 6, CounterType: t, CounterSize: size}
	}
	counters := []encode.V1Counter{
		c(engine.CounterCounter, 4), c(engine.Timer100nsInv, 8), c(engine.RawFraction, 4), c(engine.RawBase, 4),
		c(engine.CounterMultiTimer, 8), c(engine.ElapsedTime, 8), c(engine.Precision100nsTimer, 8), c(engine.PrecisionTimestamp, 8),
		c(engine.MultiTimer100ns, 8), c(engine.CounterMultiBase, 8), c(engine.AverageTimer, 4),
	}
	encode.V1Layout(counters)
	vals := func(k uint64) []uint64 {
		v := make([]uint64, len(counters))
		for i := range v {
			v[i] = k * uint64(i+1)
		}
		return v
	}
	multi := make([]uint32, len(counters))
	multi[4] = 3
	var blobs [][]byte
	for _, n := range []int32{-3, -2, -1, 0, 1, 3} {
		for _, cp := range []uint32{0, 1252, 65001} {
			o := encode.V1Object{ObjectNameTitleIndex: 232, NumInstances: n, CodePage: cp, PerfTime: 5, PerfFreq: 10, Counters: counters}
			switch {
			case n == -1:
				o.Instances = []encode.V1Instance{{Values: vals(1), MultiCounts: multi}}
			case n > 0:
				for j := range n {
					o.Instances = append(o.Instances, encode.V1Instance{Name: "inst", ParentObjectTitleIndex: 230, ParentObjectInstance: uint32(j), UniqueID: -1, Values: vals(uint64(j)), MultiCounts: multi})
				}
			}
			b := encode.V1Blob{SystemName: "SEED", PerfTime: 100, PerfFreq: 10, PerfTime100nSec: 1000, Objects: []encode.V1Object{
				{ObjectNameTitleIndex: 230, NumInstances: 2, Counters: counters[:1], Instances: []encode.V1Instance{{Name: "p", Values: []uint64{1}}, {Name: "P", Values: []uint64{2}}}},
				o,
			}}
			data, err := encode.EncodeV1(&b)
			if err != nil {
				tb.Fatal(err)
			}
			blobs = append(blobs, data)
		}
	}
	return blobs
}

// pdWalk decodes everything in data and checks the invariants: every error
// is a perfdata *engine.FormatError naming an offset, and the number of
// records is bounded by the blob's size.
func pdWalk(t *testing.T, data []byte) {
	check := func(err error) bool {
		if err == nil {
			return false
		}
		var fe *engine.FormatError
		if !errors.As(err, &fe) || fe.Format != "perfdata" || !strings.Contains(err.Error(), " at 0x") {
			t.Fatalf("error %T %q: want a perfdata *engine.FormatError naming an offset", err, err)
		}
		return true
	}
	blk, err := perfdata.Parse(data)
	if check(err) {
		return
	}
	_ = blk.SystemName()
	records := 0
	var nm perfdata.Namer
	var defs []perfdata.CounterDef
	var plan perfdata.Plan
	var planned []engine.Input
	name := make([]byte, 0, 64)
	objs := blk.Objects()
	for objs.Next() {
		o := objs.Object()
		records++
		defs = defs[:0]
		cs := o.Counters()
		for cs.Next() {
			c := cs.Counter()
			records++
			if len(defs) < 64 {
				defs = append(defs, *c)
			}
		}
		if check(cs.Err()) {
			return
		}
		// The object's definitions all decoded: a Plan of them must too,
		// and fill what Fill fills, value by value.
		if err := o.Plan(&plan); err != nil {
			t.Fatalf("object %d: Plan: %v after its definitions decoded", o.Index, err)
		}
		is := o.Instances()
		for is.Next() {
			in := is.Instance()
			records++
			if name, err = in.AppendName(name[:0]); check(err) {
				return
			}
			planned = planned[:0]
			for range plan.Defs {
				planned = append(planned, engine.Input{})
			}
			planErr := plan.Fill(planned, in.CounterBlock)
			stopped := false // at the first error, where Plan.Fill stops too
			for i := range defs {
				var x engine.Input
				err := o.Fill(&x, &defs[i], in.CounterBlock)
				switch {
				case stopped:
				case err != nil:
					if planErr == nil || planErr.Error() != err.Error() {
						t.Fatalf("counter %d: Plan.Fill error %v, Fill error %q", i, planErr, err)
					}
					stopped = true
				case planned[i] != x:
					t.Fatalf("counter %d: Plan.Fill %+v, Fill %+v", i, planned[i], x)
				}
				if !check(err) {
					engine.Compute(&x, engine.Cap100|engine.Scale)
				}
				if _, err := in.CounterBlock.Value(&defs[i]); err != nil {
					check(err)
				}
			}
			if !stopped && len(defs) == len(plan.Defs) && planErr != nil {
				t.Fatalf("Plan.Fill error %q, Fill none", planErr)
			}
		}
		if check(is.Err()) {
			return
		}
		if _, err := nm.Names(&blk, o); check(err) {
			return
		}
		// Each record takes at least 24 bytes (an instance definition and
		// its counter block take 28).
		if records > len(data)/24+1 {
			t.Fatalf("records: have %d in %d bytes, want at most one per 24 bytes", records, len(data))
		}
	}
	check(objs.Err())
}

// FuzzPerfData: decoding any bytes, walking every object, counter,
// instance, name and value, filling engine inputs and naming instances
// never panics, and every error is a *engine.FormatError naming an offset.
func FuzzPerfData(f *testing.F) {
	addProjectSeeds(f, gencorpus.KindV1)
	for _, b := range pdSeedBlobs(f) {
		f.Add(b)
	}
	for _, b := range pdRealBlocks(f) {
		f.Add(b)
	}
	// Issue 12: instance names of PDH_MAX_INSTANCE_NAME characters and
	// one more (the cap), and the long near misses of Match, small.
	for _, n := range []int{1024, 1025, 3000} {
		b, err := hostile.LongInstancesV1(3, n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		pdWalk(t, data)
		// The same bytes with TotalByteLength set to their length reach the
		// inner records instead of stopping at the header.
		if len(data) >= 24 {
			b := append([]byte(nil), data...)
			binary.LittleEndian.PutUint32(b[20:], uint32(len(b)))
			pdWalk(t, b)
		}
	})
}

// pdBytes hands out fuzz bytes; past the end it returns zeros.
type pdBytes struct{ b []byte }

func (p *pdBytes) u8() uint8 {
	if len(p.b) == 0 {
		return 0
	}
	v := p.b[0]
	p.b = p.b[1:]
	return v
}

func (p *pdBytes) u32() uint32 {
	return uint32(p.u8()) | uint32(p.u8())<<8 | uint32(p.u8())<<16 | uint32(p.u8())<<24
}

func (p *pdBytes) u64() uint64 { return uint64(p.u32()) | uint64(p.u32())<<32 }

func (p *pdBytes) name(letters []rune) string {
	n := int(p.u8() % 6)
	var b strings.Builder
	for range n {
		b.WriteRune(letters[int(p.u8())%len(letters)])
	}
	return b.String()
}

// pdDescribe derives an encodable description from fuzz bytes.
func pdDescribe(data []byte) encode.V1Blob {
	p := &pdBytes{data}
	types := engine.Types()
	wide := []rune("aZ0_ /#(é€日🎉")
	ansi := []rune("aZ0_ /#(")
	cps := []uint32{0, 1200, 1252, 20127, 28591, 65001}
	b := encode.V1Blob{
		SystemName: p.name(wide), DefaultObject: int32(p.u32()),
		SystemTime: wintype.SystemTime{Year: uint16(p.u32()), Month: uint16(p.u8()), Day: uint16(p.u8())},
		PerfTime:   int64(p.u64()), PerfFreq: int64(p.u64()), PerfTime100nSec: int64(p.u64()),
	}
	for range p.u8() % 4 {
		o := encode.V1Object{
			ObjectNameTitleIndex: uint32(p.u8() % 8 * 2), ObjectHelpTitleIndex: p.u32(), DetailLevel: p.u32(),
			DefaultCounter: int32(p.u32()), CodePage: cps[int(p.u8())%len(cps)], PerfTime: int64(p.u64()), PerfFreq: int64(p.u64()),
		}
		if p.u8()%4 == 0 {
			o.CounterBlockLength = uint32(p.u8()) * 8
		}
		for range p.u8() % 6 {
			t := types[int(p.u8())%len(types)]
			size := uint32(4 << (p.u8() % 2))
			if t&0x300 == 0x200 {
				size = 0
			}
			o.Counters = append(o.Counters, encode.V1Counter{
				CounterNameTitleIndex: p.u32(), CounterHelpTitleIndex: p.u32(), DefaultScale: int32(p.u32()),
				DetailLevel: p.u32(), CounterType: t, CounterSize: size,
			})
		}
		minLen := encode.V1Layout(o.Counters)
		if o.CounterBlockLength <= minLen {
			o.CounterBlockLength = 0 // the encoder's default, as decoding reports it
		}
		trailing := false
		for i := range o.Counters {
			trailing = trailing || encode.V1TrailingCount(o.Counters, i)
		}
		n := int32(p.u8()%8) - 3
		o.NumInstances = n
		count := max(n, 0)
		if n == -1 {
			count = 1
		}
		for range count {
			in := encode.V1Instance{UniqueID: -1}
			if n >= 0 {
				letters := wide
				if o.CodePage == 1252 || o.CodePage == 20127 || o.CodePage == 28591 {
					letters = ansi
				}
				in.Name, in.UniqueID = p.name(letters), int32(p.u32())
				in.ParentObjectTitleIndex, in.ParentObjectInstance = uint32(p.u8()%8*2), uint32(p.u8()%4)
			}
			for _, c := range o.Counters {
				v := p.u64()
				if c.CounterSize == 4 {
					v &= 0xFFFFFFFF
				} else if c.CounterSize == 0 {
					v = 0
				}
				in.Values = append(in.Values, v)
			}
			if trailing {
				in.MultiCounts = make([]uint32, len(o.Counters))
				for i := range o.Counters {
					if encode.V1TrailingCount(o.Counters, i) {
						in.MultiCounts[i] = p.u32()
					}
				}
			}
			o.Instances = append(o.Instances, in)
		}
		if len(o.Instances) == 0 {
			o.CounterBlockLength = 0 // no counter block to show it
		}
		b.Objects = append(b.Objects, o)
	}
	return b
}

// FuzzEncodeV1RoundTrip: a description derived from the fuzz bytes encodes,
// and decoding the blob gives back every field.
func FuzzEncodeV1RoundTrip(f *testing.F) {
	for _, b := range pdSeedBlobs(f) {
		f.Add(b)
	}
	for _, b := range pdRealBlocks(f) {
		f.Add(b[:min(len(b), 512)])
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		want := pdDescribe(data)
		blob, err := encode.EncodeV1(&want)
		if err != nil {
			t.Fatalf("EncodeV1: %v", err)
		}
		have, err := describe.V1(blob)
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		describe.NormalizeV1(&want)
		describe.NormalizeV1(&have)
		if !reflect.DeepEqual(have, want) {
			t.Fatalf("round trip:\nhave %+v\nwant %+v", have, want)
		}
	})
}
