package perfdata_test

import (
	"encoding/binary"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/encode"
)

func TestSizes(t *testing.T) {
	for _, tc := range []struct {
		name       string
		have, want int
	}{
		{"PERF_DATA_BLOCK", perfdata.DataBlockSize, 88},
		{"PERF_OBJECT_TYPE", perfdata.ObjectTypeSize, 64},
		{"PERF_COUNTER_DEFINITION", perfdata.CounterDefSize, 40},
		{"PERF_INSTANCE_DEFINITION", perfdata.InstanceDefSize, 24},
		{"PERF_COUNTER_BLOCK", perfdata.CounterBlockSize, 4},
	} {
		if tc.have != tc.want {
			t.Errorf("sizeof(%s): have %d, want %d", tc.name, tc.have, tc.want)
		}
	}
}

// TestNumInstances checks each NumInstances case of doc/FORMATS.md §1.3/§1.7.
func TestNumInstances(t *testing.T) {
	raw := encode.V1Counter{CounterType: engine.CounterRawcount, CounterSize: 4}
	for _, tc := range []struct {
		name      string
		n         int32
		instances []encode.V1Instance
		want      []uint64 // the first value of each instance walked
		defined   bool
	}{
		{"PERF_NO_INSTANCES", -1, []encode.V1Instance{{UniqueID: -1, Values: []uint64{42}}}, []uint64{42}, false},
		{"none now", 0, nil, nil, true},
		{"PERF_METADATA_MULTIPLE_INSTANCES", -2, nil, nil, true},
		{"PERF_METADATA_NO_INSTANCES", -3, nil, nil, true},
		{"three", 3, []encode.V1Instance{{Name: "a", Values: []uint64{1}}, {Name: "b", Values: []uint64{2}}, {Name: "c", Values: []uint64{3}}}, []uint64{1, 2, 3}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A second object after it checks that the walk advances by
			// TotalByteLength whatever the first holds.
			data := mustEncode(t, encode.V1Blob{Objects: []encode.V1Object{
				{ObjectNameTitleIndex: 2, NumInstances: tc.n, Counters: laid(raw), Instances: tc.instances},
				{ObjectNameTitleIndex: 4, NumInstances: -1, Counters: laid(raw), Instances: []encode.V1Instance{{Values: []uint64{99}}}},
			}})
			blk, err := perfdata.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			objs := blk.Objects()
			if !objs.Next() {
				t.Fatal(objs.Err())
			}
			o := objs.Object()
			if o.NumInstances != tc.n {
				t.Errorf("NumInstances: have %d, want %d", o.NumInstances, tc.n)
			}
			var have []uint64
			is := o.Instances()
			for is.Next() {
				in := is.Instance()
				if in.Defined != tc.defined {
					t.Errorf("Defined: have %v, want %v", in.Defined, tc.defined)
				}
				c, _ := o.Counter(0)
				v, err := in.CounterBlock.Value(&c)
				if err != nil {
					t.Fatal(err)
				}
				have = append(have, v)
			}
			if err := is.Err(); err != nil {
				t.Fatal(err)
			}
			if len(have) != len(tc.want) || (len(have) > 0 && have[len(have)-1] != tc.want[len(tc.want)-1]) {
				t.Errorf("values: have %v, want %v", have, tc.want)
			}
			_, err = o.SingleCounterBlock()
			if (err == nil) != (tc.n == -1) {
				t.Errorf("SingleCounterBlock: have error %v, want one only when NumInstances is not -1", err)
			}
			if !objs.Next() || objs.Object().ObjectNameTitleIndex != 4 {
				t.Fatalf("second object: have %d, %v; want 4", objs.Object().ObjectNameTitleIndex, objs.Err())
			}
			if objs.Next() || objs.Err() != nil {
				t.Errorf("after the last object: have another object or %v, want the end", objs.Err())
			}
		})
	}
}

// offsets of the records of the sample blob, found by decoding it.
type sampleOffsets struct {
	obj0, obj1, def0, def1, inst0, cb0, name0 int
}

func sampleLayout(t *testing.T, data []byte) sampleOffsets {
	t.Helper()
	blk, err := perfdata.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	objs := blk.Objects()
	if !objs.Next() {
		t.Fatal(objs.Err())
	}
	o0 := *objs.Object()
	if !objs.Next() {
		t.Fatal(objs.Err())
	}
	o1 := *objs.Object()
	d0, _ := o0.Counter(0)
	d1, _ := o0.Counter(1)
	is := o0.Instances()
	if !is.Next() {
		t.Fatal(is.Err())
	}
	in := is.Instance()
	return sampleOffsets{obj0: o0.Offset, obj1: o1.Offset, def0: d0.Offset, def1: d1.Offset, inst0: in.Offset, cb0: in.CounterBlock.Offset, name0: in.Offset + int(in.NameOffset)}
}

// TestCorruption patches one field of a valid blob at a time; the walk
// must report it with the right sentinel, record and field.
func TestCorruption(t *testing.T) {
	base := mustEncode(t, sampleBlob())
	at := sampleLayout(t, base)
	put := func(off int, v uint32) func([]byte) {
		return func(b []byte) { binary.LittleEndian.PutUint32(b[off:], v) }
	}
	for _, tc := range []struct {
		name  string
		patch func([]byte)
		err   error
		want  string
	}{
		{"signature", func(b []byte) { b[0] = 'Q' }, engine.ErrMalformed, "PERF_DATA_BLOCK at 0x0: Signature"},
		{"big-endian", put(8, 0), engine.ErrUnsupported, "LittleEndian 0"},
		{"block total too long", put(20, uint32(len(base))+8), engine.ErrTruncated, "TotalByteLength " + strconv.Itoa(len(base)+8) + " exceeds the input's"},
		{"block total zero", put(20, 0), engine.ErrMalformed, "TotalByteLength 0 is below"},
		{"header length zero", put(24, 0), engine.ErrMalformed, "HeaderLength 0 is below"},
		{"header length outside", put(24, uint32(len(base))+1), engine.ErrMalformed, "HeaderLength " + strconv.Itoa(len(base)+1) + " exceeds TotalByteLength"},
		{"too many objects", put(28, 1<<31), engine.ErrMalformed, "NumObjectTypes 2147483648 exceeds"},
		{"odd system name", put(80, 7), engine.ErrMalformed, "SystemNameLength 7 is odd"},
		{"system name outside", put(84, 1<<30), engine.ErrMalformed, "SystemNameOffset 1073741824"},
		{"object length zero", put(at.obj0, 0), engine.ErrMalformed, "PERF_OBJECT_TYPE 0 at 0x68: TotalByteLength 0 is below the 64-byte header"},
		{"object length outside", put(at.obj0, 1<<20), engine.ErrMalformed, "TotalByteLength 1048576 exceeds the"},
		{"second object zero", put(at.obj1, 0), engine.ErrMalformed, "PERF_OBJECT_TYPE 1 at 0x"},
		{"definition length", put(at.obj0+4, 4096), engine.ErrMalformed, "DefinitionLength 4096 exceeds TotalByteLength"},
		{"object header length", put(at.obj0+8, 8), engine.ErrMalformed, "HeaderLength 8 is below"},
		{"object header past definitions", put(at.obj0+8, 1000), engine.ErrMalformed, "HeaderLength 1000 exceeds DefinitionLength"},
		{"too many counters", put(at.obj0+32, 1<<30), engine.ErrMalformed, "NumCounters 1073741824 exceeds"},
		{"too many instances", put(at.obj0+40, 1<<30), engine.ErrMalformed, "NumInstances 1073741824 exceeds"},
		{"NumInstances -4", put(at.obj0+40, 0xFFFFFFFC), engine.ErrMalformed, "NumInstances -4 is neither"},
		{"counter length zero", put(at.def0, 0), engine.ErrMalformed, "PERF_COUNTER_DEFINITION 0 at 0x"},
		{"counter length outside", put(at.def1, 4000), engine.ErrMalformed, "ByteLength 4000 exceeds"},
		{"counter size 3", put(at.def0+32, 3), engine.ErrUnsupported, "CounterSize 3 is neither 4 nor 8"},
		{"counter offset outside", put(at.def0+36, 1<<16), engine.ErrMalformed, "PERF_COUNTER_BLOCK at 0x"},
		{"instance length zero", put(at.inst0, 0), engine.ErrMalformed, "PERF_INSTANCE_DEFINITION 0 at 0x"},
		{"instance length outside", put(at.inst0, 1<<20), engine.ErrMalformed, "ByteLength 1048576 exceeds"},
		{"name offset inside", put(at.inst0+16, 8), engine.ErrMalformed, "NameOffset 8 points into"},
		{"name outside", put(at.inst0+20, 1000), engine.ErrMalformed, "NameLength 1000 exceeds ByteLength"},
		{"name odd", put(at.inst0+20, 5), engine.ErrMalformed, "NameLength 5 is odd"},
		{"counter block zero", put(at.cb0, 0), engine.ErrMalformed, "PERF_COUNTER_BLOCK 0 at 0x"},
		{"counter block outside", put(at.cb0, 1<<20), engine.ErrMalformed, "ByteLength 1048576 exceeds"},
		{"code page", put(at.obj0+44, 932), engine.ErrUnsupported, "CodePage 932 is not supported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := append([]byte(nil), base...)
			tc.patch(data)
			_, err := walkAll(data)
			if err == nil {
				t.Fatal("walk: have no error, want one")
			}
			checkFormatError(t, err)
			if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error: have %q, want %v containing %q", err, tc.err, tc.want)
			}
		})
	}
}

// TestTruncation cuts blobs at every byte offset. A plain cut must fail at
// Parse; a cut whose TotalByteLength is patched to the cut length must fail
// at the structure that the cut crosses. Neither may panic.
func TestTruncation(t *testing.T) {
	blobs := map[string][]byte{
		"sample": mustEncode(t, sampleBlob()),
		"single": mustEncode(t, encode.V1Blob{SystemName: "S", Objects: []encode.V1Object{{NumInstances: -1, Counters: laid(encode.V1Counter{CounterType: engine.CounterMultiTimer, CounterSize: 8}), Instances: []encode.V1Instance{{Values: []uint64{5}, MultiCounts: []uint32{2}}}}}}),
	}
	check := func(t *testing.T, name string, data []byte) {
		if _, err := walkAll(data); err != nil {
			t.Fatalf("%s: whole blob: %v", name, err)
		}
		for k := range len(data) {
			cut := append([]byte(nil), data[:k]...)
			_, err := walkAll(cut)
			if err == nil {
				t.Fatalf("%s cut at %d: have no error, want one", name, k)
			}
			checkFormatError(t, err)
			if k >= 24 {
				binary.LittleEndian.PutUint32(cut[20:], uint32(k))
				_, err := walkAll(cut)
				if err == nil {
					t.Fatalf("%s cut at %d with TotalByteLength %d: have no error, want one", name, k, k)
				}
				checkFormatError(t, err)
			}
		}
	}
	for name, data := range blobs {
		check(t, name, data)
	}
	t.Run("real", func(t *testing.T) {
		dir := corpus.Shared(t, "v1")
		for _, f := range []string{"s00_obj2.bin", "s00_obj238.bin", "s03_obj230.bin"} {
			check(t, f, readCorpusFile(t, dir, f))
		}
	})
}

// TestHostileCounts checks that huge counts in a tiny blob fail at once,
// without allocations sized by them.
func TestHostileCounts(t *testing.T) {
	data := mustEncode(t, encode.V1Blob{Objects: []encode.V1Object{{NumInstances: 0}}})
	for _, tc := range []struct {
		name string
		off  int
	}{
		{"NumObjectTypes", 28},
		{"NumCounters", 88 + 32},
		{"NumInstances", 88 + 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := append([]byte(nil), data...)
			binary.LittleEndian.PutUint32(b[tc.off:], 0x7FFFFFFF)
			allocs := testing.AllocsPerRun(10, func() {
				blk, err := perfdata.Parse(b)
				if err != nil {
					return
				}
				objs := blk.Objects()
				objs.Next()
			})
			if _, err := walkAll(b); err == nil || !strings.Contains(err.Error(), tc.name+" 2147483647 exceeds") {
				t.Errorf("error: have %v, want %s ... exceeds", err, tc.name)
			}
			if allocs > 8 {
				t.Errorf("allocations: have %v, want a handful (the error only)", allocs)
			}
		})
	}
}

// TestHandMadeRecords checks that records built by hand, not by the
// decoder, give errors rather than panics.
func TestHandMadeRecords(t *testing.T) {
	o := perfdata.Object{NumCounters: 3, HeaderLength: 64, DefinitionLength: 4000, TotalByteLength: 8000, NumInstances: 5}
	cs := o.Counters()
	if cs.Next() || cs.Err() == nil {
		t.Error("counters of a hand-made object: have no error, want one")
	}
	if _, err := o.Counter(1); err == nil {
		t.Error("Counter(1) of a hand-made object: have no error, want one")
	}
	is := o.Instances()
	if is.Next() || is.Err() == nil {
		t.Error("instances of a hand-made object: have no error, want one")
	}
	var in engine.Input
	def := perfdata.CounterDef{CounterType: engine.RawFraction, CounterSize: 4, CounterOffset: 4, ByteLength: 40}
	if err := o.Fill(&in, &def, perfdata.CounterBlock{}); err == nil {
		t.Error("Fill from an empty counter block: have no error, want one")
	}
	var blk perfdata.Block
	objs := blk.Objects()
	if objs.Next() || objs.Err() != nil {
		t.Errorf("objects of a zero Block: have an object or %v, want none", objs.Err())
	}
	if blk.SystemName() != "" {
		t.Error("system name of a zero Block: want empty")
	}
}
