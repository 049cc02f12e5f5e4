package hostile

import (
	"bytes"
	"testing"

	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/perfdata"
)

// TestInputs: each generator makes what its documentation says, at a small
// size.
func TestInputs(t *testing.T) {
	blob, err := LongInstancesV1(3, 100)
	if err != nil {
		t.Fatal(err)
	}
	b, err := perfdata.Parse(blob)
	if err != nil {
		t.Fatal(err)
	}
	objs := b.Objects()
	objs.Next()
	insts := objs.Object().Instances()
	for i := range 3 {
		insts.Next()
		in, err := insts.Instance(), insts.Err()
		name, nerr := in.Name()
		if err != nil || nerr != nil || len(name) != 100 || name[99] != byte('0'+i) {
			t.Fatalf("instance %d: %q, %v, %v", i, name, err, nerr)
		}
	}
	if p := NearMissPattern(3); p != "*aaab" {
		t.Errorf("NearMissPattern(3) = %q", p)
	}
	log := CounterListLog(1000)
	r, err := blg.NewReader(bytes.NewReader(log), int64(len(log)))
	if err != nil {
		t.Fatal(err)
	}
	if c := r.Counters(); len(c) != 1000 || c[999].Instance != "instance000999" {
		t.Fatalf("%d counters", len(c))
	}
	if r.Next() || r.Err() != nil {
		t.Fatalf("a sample or an error: %v", r.Err())
	}
	wide := WideLog([]string{"Handle Count", "Thread Count"}, 30, 7)
	r, err = blg.NewReader(bytes.NewReader(wide), int64(len(wide)))
	if err != nil {
		t.Fatal(err)
	}
	if c := r.Counters(); len(c) != 2 || c[1].Counter != "Thread Count" || c[1].Instance != "*" {
		t.Fatalf("wide: counters %+v", c)
	}
	samples := 0
	for r.Next() {
		samples++
	}
	if samples != 7 || r.Err() != nil {
		t.Fatalf("wide: %d samples, %v", samples, r.Err())
	}
	table, err := NameTable(500)
	if err != nil {
		t.Fatal(err)
	}
	if nt, err := nametable.Parse(table); err != nil || nt.Len() != 500 {
		t.Fatalf("name table: %v", err)
	}
}
