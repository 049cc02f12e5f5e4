package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

func TestRunWritesEveryFileAndNothingElse(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "corpus")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "calc-requests.jsonl")
	if err := os.WriteFile(other, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(dir); err != nil {
		t.Fatal(err)
	}
	files, err := gencorpus.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		have, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil || !bytes.Equal(have, f.Data) {
			t.Errorf("%s: not written as built (%v)", f.Name, err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(files)+1 {
		t.Errorf("have %d files, want %d", len(entries), len(files)+1)
	}
	if b, _ := os.ReadFile(other); string(b) != "keep me\n" {
		t.Errorf("another file was changed: %q", b)
	}
}
