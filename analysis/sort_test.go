package analysis

import (
	"math/rand"
	"slices"
	"testing"
)

// TestSortFloats: the introsort and its heapsort fallback agree with
// slices.Sort on random, sorted, reversed, constant and few-valued inputs
// of many lengths; sortStrings too.
func TestSortFloats(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	for n := range 300 {
		for kind := range 5 {
			a := make([]float64, n)
			for i := range a {
				switch kind {
				case 0:
					a[i] = rnd.NormFloat64()
				case 1:
					a[i] = float64(i)
				case 2:
					a[i] = float64(-i)
				case 3:
					a[i] = 7
				case 4:
					a[i] = float64(rnd.Intn(3))
				}
			}
			want := slices.Clone(a)
			slices.Sort(want)
			b := slices.Clone(a)
			sortFloats(a)
			heapFloats(b)
			if !slices.Equal(a, want) || !slices.Equal(b, want) {
				t.Fatalf("n %d kind %d: introsort %v, heapsort %v, want %v", n, kind, a, b, want)
			}
		}
	}
	s := []string{"b", "a", "c", "a"}
	sortStrings(s)
	if !slices.Equal(s, []string{"a", "a", "b", "c"}) {
		t.Errorf("sortStrings: %v", s)
	}
}
