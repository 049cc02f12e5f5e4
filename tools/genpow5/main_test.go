package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfcalc/perfcalc/tools/corpus"
)

// TestCommittedTableUpToDate checks that engine/formatpow.go is what the
// generator writes now.
func TestCommittedTableUpToDate(t *testing.T) {
	have, err := os.ReadFile(filepath.Join(corpus.Root(), "engine", "formatpow.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, Source()) {
		t.Error("engine/formatpow.go differs from a fresh build: run go generate ./engine")
	}
}
