package collect

import (
	"testing"

	"github.com/perfcalc/perfcalc/engine/query"
)

// cycleRegistry answers each query with the next merged sample of the
// corpus, round and round, copying it into the caller's buffer as
// RegQueryValueEx does.
type cycleRegistry struct {
	RegistrySource
	blobs [][]byte
	n     int
}

func newReplayRegistry(c *v1Corpus) *cycleRegistry {
	r := &cycleRegistry{}
	for _, s := range c.samples {
		var objs [][]byte
		for _, t := range c.titles {
			objs = append(objs, s[t])
		}
		r.blobs = append(r.blobs, mergeBlobs(objs))
	}
	r.RegistrySource = ReplayRegistry(r.blobs, c.names)
	return r
}

func (r *cycleRegistry) Query(dst []byte, name string) ([]byte, error) {
	b := r.blobs[r.n%len(r.blobs)]
	r.n++
	return append(dst, b...), nil
}

// TestRegistrySteadyStateAllocs pins the V1 path at zero allocations per
// sample once the buffers have grown and every instance name was seen.
func TestRegistrySteadyStateAllocs(t *testing.T) {
	c := loadV1Corpus(t)
	col, err := NewRegistry(newReplayRegistry(c), Config{})
	if err != nil {
		t.Fatal(err)
	}
	var s Sample
	for range 2 * len(c.samples) { // every sample seen once, twice over
		if err := col.Collect(&s); err != nil {
			t.Fatal(err)
		}
	}
	if n := testing.AllocsPerRun(3*len(c.samples), func() {
		if err := col.Collect(&s); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Fatalf("%v allocations per sample, want 0", n)
	}
	if len(s.Values) == 0 {
		t.Fatal("no values")
	}
}

// BenchmarkRegistryCollect is one sample of the corpus' 8 objects (51
// processes), every counter, through the V1 path.
func BenchmarkRegistryCollect(b *testing.B) {
	c := loadV1Corpus(b)
	col, err := NewRegistry(newReplayRegistry(c), Config{})
	if err != nil {
		b.Fatal(err)
	}
	var s Sample
	for range 2 * len(c.samples) {
		col.Collect(&s)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := col.Collect(&s); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(s.Values)), "values/op")
}

// BenchmarkQueryWholeBlob is the same work as BenchmarkRegistryCollect
// done by one engine/query Query on the whole blobs (no per-object
// isolation): the reference for the cost of cutting each object out.
func BenchmarkQueryWholeBlob(b *testing.B) {
	c := loadV1Corpus(b)
	r := newReplayRegistry(c)
	q := query.New(query.Config{Names: mustTable(b, c.names)})
	var vals []query.Value
	var err error
	for i := range 2 * len(r.blobs) {
		vals, _ = q.Run(vals[:0], r.blobs[i%len(r.blobs)], r.blobs[(i+1)%len(r.blobs)])
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if vals, err = q.Run(vals[:0], r.blobs[i%len(r.blobs)], r.blobs[(i+1)%len(r.blobs)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(vals)), "values/op")
}
