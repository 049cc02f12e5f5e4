package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/abi"
)

// TestFormatNames: relog.Format's constants, read from its source, are
// those of the package, in the order of their values.
func TestFormatNames(t *testing.T) {
	names, err := formatNames(filepath.Join(root(t), relogFormats))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"CSV", "TSV", "JSON", "Bin"}; !slices.Equal(names, want) {
		t.Fatalf("relog.Format's names %q, want %q", names, want)
	}
	for i, f := range []relog.Format{relog.CSV, relog.TSV, relog.JSON, relog.Bin} {
		if int(f) != i {
			t.Errorf("relog.%s = %d, want %d", names[i], f, i)
		}
	}
	// The ABI's constants, as the module reads them (relog.Format(format)).
	for i, v := range []uint32{abi.FormatCSV, abi.FormatTSV, abi.FormatJSON, abi.FormatBin} {
		if v != uint32(i) {
			t.Errorf("abi.Format%s = %d, want %d", names[i], v, i)
		}
	}
}

// TestWriteFormats: a format added to relog.Format is added to layout.go
// (with a comment naming it), a renumbered one takes its new value, the
// others keep their comments, and FormatMask and the rest stay.
func TestWriteFormats(t *testing.T) {
	src := "package abi\n\nconst (\n\tFormatCSV  = 0 // csv\n\tFormatTSV  = 1 // tsv\n\tFormatMask = 0xFF\n\tDigits     = 8 // digits\n)\n"
	got, err := writeFormats([]byte(src), []string{"TSV", "CSV", "XML"})
	if err != nil {
		t.Fatal(err)
	}
	want := "package abi\n\nconst (\n\tFormatTSV  = 0 // tsv\n\tFormatCSV  = 1 // csv\n\tFormatXML  = 2 // relog.XML\n\tFormatMask = 0xFF\n\tDigits     = 8 // digits\n)\n"
	if string(got) != want {
		t.Errorf("writeFormats:\n%s\nwant\n%s", got, want)
	}
	split := strings.Replace(src, "\tFormatTSV", "\tOther = 2\n\tFormatTSV", 1)
	if _, err := writeFormats([]byte(split), []string{"CSV"}); err == nil || !strings.Contains(err.Error(), "follow each other") {
		t.Errorf("Format constants apart: %v", err)
	}
}
