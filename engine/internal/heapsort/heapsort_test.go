package heapsort

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// inputs returns slices of every length up to 70 and a few long ones, in
// patterns that trip up sorts: sorted, reversed, constant, few values,
// organ pipe and random.
func inputs() [][]int {
	r := rand.New(rand.NewPCG(1, 2))
	var out [][]int
	for _, n := range append(seq(71), 1000, 4097) {
		for p := range 6 {
			s := make([]int, n)
			for i := range s {
				switch p {
				case 0:
					s[i] = i
				case 1:
					s[i] = n - i
				case 2:
					s[i] = 7
				case 3:
					s[i] = r.IntN(3)
				case 4:
					s[i] = min(i, n-i)
				default:
					s[i] = r.Int()
				}
			}
			out = append(out, s)
		}
	}
	return out
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func TestSortMatchesSlicesSort(t *testing.T) {
	for _, in := range inputs() {
		got := slices.Clone(in)
		Sort(len(got), func(i, j int) bool { return got[i] < got[j] }, func(i, j int) { got[i], got[j] = got[j], got[i] })
		want := slices.Clone(in)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("Sort(%v) = %v, want %v", in, got, want)
		}
	}
}

// TestSortComparisons checks the O(n log n) bound on every pattern: at most
// 2n·log2(n) + 2n comparisons.
func TestSortComparisons(t *testing.T) {
	for _, in := range inputs() {
		s := slices.Clone(in)
		calls := 0
		Sort(len(s), func(i, j int) bool { calls++; return s[i] < s[j] }, func(i, j int) { s[i], s[j] = s[j], s[i] })
		n := len(s)
		log := 0
		for 1<<log < n {
			log++
		}
		if limit := 2*n*log + 2*n; calls > limit {
			t.Errorf("n=%d: %d comparisons, more than %d", n, calls, limit)
		}
	}
}

func TestSortAllocatesNothing(t *testing.T) {
	s := inputs()[len(inputs())-1]
	less := func(i, j int) bool { return s[i] < s[j] }
	swap := func(i, j int) { s[i], s[j] = s[j], s[i] }
	if n := testing.AllocsPerRun(10, func() { Sort(len(s), less, swap) }); n != 0 {
		t.Errorf("Sort allocates %v times per call", n)
	}
}
