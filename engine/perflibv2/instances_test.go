package perflibv2_test

import (
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/internal/encode"
)

func TestInstances(t *testing.T) {
	want := []encode.V2Instance{{InstanceID: 0, Name: "0"}, {InstanceID: 1, Name: "1"}, {InstanceID: 0xFFFFFFFF, Name: "_Total"}, {InstanceID: 1, Name: "1"}, {InstanceID: 7, Name: ""}, {InstanceID: 8, Name: "1234567890123456789"}}
	b, err := encode.EncodeV2Instances(want)
	if err != nil {
		t.Fatal(err)
	}
	var p perflibv2.InstanceParser
	p.Start(b)
	var inst perflibv2.Instance
	off := 0
	for i, w := range want {
		ok, err := p.Next(&inst)
		if !ok || err != nil {
			t.Fatalf("Next %d: have %v, %v; want an instance", i, ok, err)
		}
		if inst.Index != i || inst.Offset != off || inst.InstanceID != w.InstanceID || inst.Name.String() != w.Name || inst.Size%8 != 0 || inst.Size < 16 {
			t.Errorf("instance %d: have %+v %q, want %+v at %d", i, inst, inst.Name.String(), w, off)
		}
		off += int(inst.Size)
	}
	if ok, err := p.Next(&inst); ok || err != nil {
		t.Errorf("Next at the end: have %v, %v; want false, nil", ok, err)
	}
	// An instance of Size 8 has an empty name.
	p.Start([]byte{8, 0, 0, 0, 5, 0, 0, 0})
	if ok, err := p.Next(&inst); !ok || err != nil || inst.InstanceID != 5 || inst.Name.Len() != 0 {
		t.Errorf("Size 8: have %v %v %+v, want instance 5 without a name", ok, err, inst)
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
			var inst perflibv2.Instance
			var err error
			for ok := true; ok && err == nil; {
				ok, err = p.Next(&inst)
			}
			wantFormatError(t, err, "PERF_INSTANCE_HEADER", tc.offset, tc.field, tc.err)
			if fe := err.(*engine.FormatError); fe.Index != tc.index {
				t.Errorf("Index: have %d, want %d", fe.Index, tc.index)
			}
			if ok, err := p.Next(&inst); ok || err != nil {
				t.Errorf("Next after an error: have %v, %v; want false, nil", ok, err)
			}
		})
	}
	for n := range len(b) {
		var p perflibv2.InstanceParser
		p.Start(b[:n])
		var inst perflibv2.Instance
		var err error
		for ok := true; ok && err == nil; {
			ok, err = p.Next(&inst)
		}
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
		var inst perflibv2.Instance
		for {
			ok, err := p.Next(&inst)
			if err != nil {
				panic(err)
			}
			if !ok {
				break
			}
			buf = inst.Name.AppendUTF8(buf[:0])
			n += len(buf)
		}
	})
	if allocs != 0 {
		t.Errorf("walking instances: have %v allocs per run, want 0", allocs)
	}
	if n == 0 {
		t.Error("read nothing")
	}
}
