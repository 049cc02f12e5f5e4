package perflibv2_test

import (
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/tools/encode"
)

func TestInstances(t *testing.T) {
	want := []encode.V2Instance{{InstanceID: 0, Name: "0"}, {InstanceID: 1, Name: "1"}, {InstanceID: 0xFFFFFFFF, Name: "_Total"}, {InstanceID: 1, Name: "1"}, {InstanceID: 7, Name: ""}, {InstanceID: 8, Name: "1234567890123456789"}}
	b, err := encode.EncodeV2Instances(want)
	if err != nil {
		t.Fatal(err)
	}
	var p perflibv2.InstanceParser
	p.Start(b)
	off := 0
	for i, w := range want {
		if !p.Next() {
			t.Fatalf("Next %d: have false, %v; want an instance", i, p.Err())
		}
		inst := p.Instance()
		if inst.Index != i || inst.Offset != off || inst.InstanceID != w.InstanceID || inst.Name.String() != w.Name || inst.Size%8 != 0 || inst.Size < 16 {
			t.Errorf("instance %d: have %+v %q, want %+v at %d", i, inst, inst.Name.String(), w, off)
		}
		off += int(inst.Size)
	}
	if p.Next() || p.Err() != nil {
		t.Errorf("Next at the end: have an instance or %v; want none", p.Err())
	}
	// An instance of Size 8 has an empty name.
	p.Start([]byte{8, 0, 0, 0, 5, 0, 0, 0})
	if ok := p.Next(); !ok || p.Err() != nil || p.Instance().InstanceID != 5 || p.Instance().Name.Len() != 0 {
		t.Errorf("Size 8: have %v %v %+v, want instance 5 without a name", ok, p.Err(), *p.Instance())
	}
}

func TestInstanceErrors(t *testing.T) {
	b, err := encode.EncodeV2Instances([]encode.V2Instance{{InstanceID: 1, Name: "abc"}, {InstanceID: 2, Name: "de"}})
	if err != nil {
		t.Fatal(err)
	}
	// Instance 0 at 0 (Size 16), instance 1 at 16 (Size 16).
	for _, tc := range []struct {
		name   string
		in     []byte
		index  int
		offset int64
		field  string
		err    error
	}{
		{"short header", b[:20], 1, 16, "", engine.ErrTruncated},
		{"Size zero", put32(b, 16, 0), 1, 16, "Size", engine.ErrMalformed},
		{"Size 4", put32(b, 0, 4), 0, 0, "Size", engine.ErrMalformed},
		{"Size misaligned", put32(b, 0, 12), 0, 0, "Size", engine.ErrMalformed},
		{"Size outside", put32(b, 16, 24), 1, 16, "Size", engine.ErrMalformed},
		{"Size huge", put32(b, 0, 0xFFFFFFF8), 0, 0, "Size", engine.ErrMalformed},
		{"name without NUL", put32(put32(b, 8, 0x00620061), 12, 0x00640063), 0, 8, "Name", engine.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p perflibv2.InstanceParser
			p.Start(tc.in)
			for p.Next() {
			}
			err := p.Err()
			wantFormatError(t, err, "PERF_INSTANCE_HEADER", tc.offset, tc.field, tc.err)
			if fe := err.(*engine.FormatError); fe.Index != tc.index {
				t.Errorf("Index: have %d, want %d", fe.Index, tc.index)
			}
			if p.Next() || p.Err() != err {
				t.Errorf("Next after an error: have an instance or %v; want false and %v", p.Err(), err)
			}
		})
	}
	for n := range len(b) {
		var p perflibv2.InstanceParser
		p.Start(b[:n])
		for p.Next() {
		}
		err := p.Err()
		if n != 0 && n != 16 && !isFormatError(err) {
			t.Errorf("cut at %d: have %v, want a FormatError", n, err)
		}
	}
}

func TestInstanceAllocs(t *testing.T) {
	b, _ := encode.EncodeV2Instances([]encode.V2Instance{{InstanceID: 1, Name: "abc"}, {InstanceID: 2, Name: "de"}, {InstanceID: 3, Name: "_Total"}})
	buf := make([]byte, 0, 64)
	n := 0
	allocs := testing.AllocsPerRun(100, func() {
		var p perflibv2.InstanceParser
		p.Start(b)
		for p.Next() {
			inst := p.Instance()
			buf = inst.Name.AppendUTF8(buf[:0])
			n += len(buf)
		}
		if err := p.Err(); err != nil {
			panic(err)
		}
	})
	if allocs != 0 {
		t.Errorf("walking instances: have %v allocs per run, want 0", allocs)
	}
	if n == 0 {
		t.Error("read nothing")
	}
}
