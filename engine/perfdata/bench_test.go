package perfdata_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"
	"unicode/utf16"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/cputime"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

// walkValues visits every object, instance, name and raw value of data, and
// fills an engine input for each value: the hot path that must not
// allocate. name is the caller's buffer for the decoded names.
func walkValues(data, name []byte, defs []perfdata.CounterDef) (sum uint64, n int, err error) {
	blk, err := perfdata.Parse(data)
	if err != nil {
		return 0, 0, err
	}
	var x engine.Input
	objs := blk.Objects()
	for objs.Next() {
		o := objs.Object()
		// The definitions, once per object, into the caller's slice.
		defs = defs[:0]
		cs := o.Counters()
		for cs.Next() {
			c := cs.Counter()
			defs = append(defs, *c)
		}
		if err := cs.Err(); err != nil {
			return sum, n, err
		}
		is := o.Instances()
		for is.Next() {
			in := is.Instance()
			if name, err = in.AppendName(name[:0]); err != nil {
				return sum, n, err
			}
			for i := range defs {
				// Fill reads the raw value (and its base) into the engine's
				// input.
				if err := o.Fill(&x, &defs[i], in.CounterBlock); err != nil {
					return sum, n, err
				}
				sum += x.New.FirstValue
				n++
			}
		}
		if err := is.Err(); err != nil {
			return sum, n, err
		}
	}
	if err := objs.Err(); err != nil {
		return sum, n, err
	}
	return sum, n, nil
}

// walkPlan is walkValues with a Plan per object: the fill walk.
func walkPlan(data, name []byte, p *perfdata.Plan, ins []engine.Input) (sum uint64, n int, err error) {
	blk, err := perfdata.Parse(data)
	if err != nil {
		return 0, 0, err
	}
	objs := blk.Objects()
	for objs.Next() {
		o := objs.Object()
		// The definitions and everything Fill works out from them, once
		// per object.
		if err := o.Plan(p); err != nil {
			return sum, n, err
		}
		is := o.Instances()
		for is.Next() {
			in := is.Instance()
			if name, err = in.AppendName(name[:0]); err != nil {
				return sum, n, err
			}
			// Every value of the instance into the engine's inputs.
			if err := p.Fill(ins, in.CounterBlock); err != nil {
				return sum, n, err
			}
			for i := range p.Defs {
				sum += ins[i].New.FirstValue
			}
			n += len(p.Defs)
		}
		if err := is.Err(); err != nil {
			return sum, n, err
		}
	}
	if err := objs.Err(); err != nil {
		return sum, n, err
	}
	return sum, n, nil
}

// The records as existing Go exporters declare them for binary.Read.
type (
	rawDataBlock struct {
		Signature                                                                   [4]uint16
		LittleEndian, Version, Revision, TotalByteLength, HeaderLength, NumObjTypes uint32
		DefaultObject                                                               int32
		SystemTime                                                                  [8]uint16
		_                                                                           uint32
		PerfTime, PerfFreq, PerfTime100nSec                                         int64
		SystemNameLength, SystemNameOffset                                          uint32
	}
	rawObjectType struct {
		TotalByteLength, DefinitionLength, HeaderLength, ObjectNameTitleIndex, ObjectNameTitle uint32
		ObjectHelpTitleIndex, ObjectHelpTitle, DetailLevel, NumCounters                        uint32
		DefaultCounter, NumInstances                                                           int32
		CodePage                                                                               uint32
		PerfTime, PerfFreq                                                                     int64
	}
	rawCounterDef struct {
		ByteLength, CounterNameTitleIndex, CounterNameTitle, CounterHelpTitleIndex, CounterHelpTitle uint32
		DefaultScale                                                                                 int32
		DetailLevel, CounterType, CounterSize, CounterOffset                                         uint32
	}
	rawInstanceDef struct {
		ByteLength, ParentObjectTitleIndex, ParentObjectInstance uint32
		UniqueID                                                 int32
		NameOffset, NameLength                                   uint32
	}
)

// walkBinaryRead is the same walk written "the common way": binary.Read into
// structs through a bytes.Reader, slices per object, strings per name, as
// existing Go perflib readers do. Test-only code, for the comparison.
func walkBinaryRead(data []byte) (sum uint64, n int, err error) {
	le := binary.LittleEndian
	r := bytes.NewReader(data)
	var hdr rawDataBlock
	if err := binary.Read(r, le, &hdr); err != nil {
		return 0, 0, err
	}
	off := int64(hdr.HeaderLength)
	for range hdr.NumObjTypes {
		r.Seek(off, io.SeekStart)
		var obj rawObjectType
		if err := binary.Read(r, le, &obj); err != nil {
			return sum, n, err
		}
		r.Seek(off+int64(obj.HeaderLength), io.SeekStart)
		defs := make([]rawCounterDef, obj.NumCounters)
		for i := range defs {
			if err := binary.Read(r, le, &defs[i]); err != nil {
				return sum, n, err
			}
		}
		readBlock := func(cb int64) error {
			for _, d := range defs {
				r.Seek(cb+int64(d.CounterOffset), io.SeekStart)
				var v uint64
				switch d.CounterSize {
				case 4:
					var v4 uint32
					if err := binary.Read(r, le, &v4); err != nil {
						return err
					}
					v = uint64(v4)
				case 8:
					if err := binary.Read(r, le, &v); err != nil {
						return err
					}
				default:
					return errors.New("bad size")
				}
				sum += v
				n++
			}
			return nil
		}
		p := off + int64(obj.DefinitionLength)
		if obj.NumInstances == -1 {
			if err := readBlock(p); err != nil {
				return sum, n, err
			}
		}
		for range max(obj.NumInstances, 0) {
			r.Seek(p, io.SeekStart)
			var inst rawInstanceDef
			if err := binary.Read(r, le, &inst); err != nil {
				return sum, n, err
			}
			r.Seek(p+int64(inst.NameOffset), io.SeekStart)
			name := make([]uint16, inst.NameLength/2)
			if err := binary.Read(r, le, name); err != nil {
				return sum, n, err
			}
			if len(name) > 0 && name[len(name)-1] == 0 {
				name = name[:len(name)-1]
			}
			_ = string(utf16.Decode(name))
			cb := p + int64(inst.ByteLength)
			r.Seek(cb, io.SeekStart)
			var cbLen uint32
			if err := binary.Read(r, le, &cbLen); err != nil {
				return sum, n, err
			}
			if err := readBlock(cb); err != nil {
				return sum, n, err
			}
			p = cb + int64(cbLen)
		}
		off += int64(obj.TotalByteLength)
	}
	return sum, n, nil
}

// syntheticBlob is the ~1 MB multi-object blob of tools/gencorpus.
func syntheticBlob(tb testing.TB) []byte {
	b, err := gencorpus.SyntheticV1()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestWalkAllocs is the zero-allocation gate of the hot path: walking every
// object, instance, name and value and filling engine inputs.
func TestWalkAllocs(t *testing.T) {
	check := func(t *testing.T, data []byte) {
		name := make([]byte, 0, 256)
		defs := make([]perfdata.CounterDef, 0, 64)
		sum, n, err := walkValues(data, name, defs)
		if err != nil || n == 0 {
			t.Fatalf("walk: have %d values, %v; want some, no error", n, err)
		}
		sum2, n2, err := walkBinaryRead(data)
		if err != nil || sum2 != sum || n2 != n {
			t.Fatalf("binary.Read walk: have %d values sum %d (%v), want %d sum %d", n2, sum2, err, n, sum)
		}
		var p perfdata.Plan
		ins := make([]engine.Input, 256)
		sum3, n3, err := walkPlan(data, name, &p, ins)
		if err != nil || sum3 != sum || n3 != n {
			t.Fatalf("Plan walk: have %d values sum %d (%v), want %d sum %d", n3, sum3, err, n, sum)
		}
		allocs := testing.AllocsPerRun(20, func() {
			if _, _, err := walkValues(data, name, defs); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("allocations per walk: have %v, want 0", allocs)
		}
		if allocs := testing.AllocsPerRun(20, func() {
			if _, _, err := walkPlan(data, name, &p, ins); err != nil {
				t.Fatal(err)
			}
		}); allocs != 0 {
			t.Errorf("allocations per Plan walk: have %v, want 0", allocs)
		}
	}
	t.Run("synthetic", func(t *testing.T) {
		data := syntheticBlob(t)
		if len(data) < 1<<20-(1<<17) || len(data) > 1<<20+(1<<18) {
			t.Errorf("synthetic blob: have %d bytes, want about 1 MB", len(data))
		}
		check(t, data)
	})
	t.Run("Process", func(t *testing.T) {
		check(t, readCorpusFile(t, corpus.Shared(t, "v1"), "s00_obj230.bin"))
	})
}

// BenchmarkWalk compares the fill walk (walkPlan: a Plan per object) with
// the same walk calling Object.Fill per value (impl=fill) and with the
// binary.Read walk of existing Go readers, on the real Process block and on
// a synthetic ~1 MB multi-object blob:
//
//	make bench-walk
func BenchmarkWalk(b *testing.B) {
	for _, blob := range []struct {
		name string
		data func(b *testing.B) []byte
	}{
		{"Process", func(b *testing.B) []byte { return readCorpusFile(b, corpus.Shared(b, "v1"), "s00_obj230.bin") }},
		{"Synthetic1MB", func(b *testing.B) []byte { return syntheticBlob(b) }},
	} {
		for _, impl := range []struct {
			name string
			walk func(data []byte) error
		}{
			{"plan", func() func([]byte) error {
				name, ins := make([]byte, 0, 256), make([]engine.Input, 256)
				var p perfdata.Plan
				return func(data []byte) error { _, _, err := walkPlan(data, name, &p, ins); return err }
			}()},
			{"fill", func() func([]byte) error {
				name, defs := make([]byte, 0, 256), make([]perfdata.CounterDef, 0, 64)
				return func(data []byte) error { _, _, err := walkValues(data, name, defs); return err }
			}()},
			{"binaryRead", func(data []byte) error { _, _, err := walkBinaryRead(data); return err }},
		} {
			b.Run("blob="+blob.name+"/impl="+impl.name, func(b *testing.B) {
				data := blob.data(b)
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				t := cputime.Start(b)
				for i := 0; i < b.N; i++ {
					if err := impl.walk(data); err != nil {
						b.Fatal(err)
					}
				}
				t.ReportBytes(b, int64(len(data)))
			})
		}
	}
}
