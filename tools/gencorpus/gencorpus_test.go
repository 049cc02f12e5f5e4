package gencorpus

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/perfcalc/perfcalc/tools/corpus"
)

func build(t *testing.T) map[string][]byte {
	t.Helper()
	files, err := Files()
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestCommittedFilesUpToDate checks that testdata/corpus holds exactly
// what the generator builds now.
func TestCommittedFilesUpToDate(t *testing.T) {
	files, err := Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		have, err := os.ReadFile(corpus.Project(t, f.Name))
		switch {
		case errors.Is(err, os.ErrNotExist):
			t.Errorf("%s is missing: testdata/corpus is stale: run make corpus", f.Name)
		case err != nil:
			t.Errorf("%s: %v", f.Name, err)
		case !bytes.Equal(have, f.Data):
			t.Errorf("%s differs from a fresh build (have %d bytes, want %d): testdata/corpus is stale: run make corpus",
				f.Name, len(have), len(f.Data))
		}
	}
}

func TestDeterministic(t *testing.T) {
	a, b := build(t), build(t)
	if len(a) != 10 {
		t.Errorf("have %d files, want 10", len(a))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s: two builds differ", name)
		}
	}
}

func TestSmall(t *testing.T) {
	total := 0
	for name, data := range build(t) {
		if len(data) == 0 {
			t.Errorf("%s is empty", name)
		}
		total += len(data)
	}
	if total > 100_000 {
		t.Errorf("the generated files take %d bytes, want at most 100,000", total)
	}
}

func TestSeeds(t *testing.T) {
	files := build(t)
	for _, tc := range []struct {
		kind Kind
		want []string
	}{
		{KindV1, []string{NameGlobal1, NameGlobal2}},
		{KindNameTable, []string{NameCounter009, NameHelp009}},
		{KindV2Data, []string{NameV2Data1, NameV2Data2}},
		{KindV2RegInfo, []string{NameV2RegInfo}},
		{KindV2Strings, []string{NameV2Strings}},
		{KindV2Instances, []string{NameV2Instances}},
		{KindBlg, []string{NameSampleBlg}},
	} {
		seeds, err := Seeds(tc.kind)
		if err != nil {
			t.Fatal(err)
		}
		if len(seeds) != len(tc.want) {
			t.Errorf("kind %d: have %d seeds, want %d", tc.kind, len(seeds), len(tc.want))
			continue
		}
		for i, name := range tc.want {
			if !bytes.Equal(seeds[i], files[name]) {
				t.Errorf("kind %d: seed %d is not %s", tc.kind, i, name)
			}
		}
	}
}
