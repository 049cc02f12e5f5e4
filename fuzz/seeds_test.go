package fuzz

import (
	"testing"

	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

// addProjectSeeds adds the project's own captures of kind k (the files of
// testdata/corpus, as tools/gencorpus builds them) to f's seed corpus.
func addProjectSeeds(f *testing.F, k gencorpus.Kind) {
	f.Helper()
	seeds, err := gencorpus.Seeds(k)
	if err != nil {
		f.Fatal(err)
	}
	if len(seeds) == 0 {
		f.Fatalf("gencorpus.Seeds(%v) returned no files", k)
	}
	for _, b := range seeds {
		f.Add(b)
	}
}
