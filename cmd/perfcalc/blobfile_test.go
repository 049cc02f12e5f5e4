package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadCapture(t *testing.T) {
	dir := t.TempDir()
	file := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(corpusFile(name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		name     string
		data     []byte
		wantKind captureKind
		wantErr  string
	}{
		{"V1 blob", read("global-1.bin"), kindV1, ""},
		{"V1 signature, damaged body", read("global-1.bin")[:200], kindV1, ""},
		{"V2 result", read("v2-data-1.bin"), kindV2, ""},
		{"name table", read("counter-009.multisz"), 0, "it is a name table: give it with --names"},
		{"V2 registration", read("v2-reginfo.bin"), 0, "it looks like a V2 registration: give it with --reginfo"},
		{"relog CSV", []byte("\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\H\\X\\Y\"\r\n"), 0, "it is relog's CSV or TSV output"},
		{"empty", nil, 0, "the file is empty"},
		{"text", []byte("PERF, but in ASCII"), 0, "neither a V1 PERF_DATA_BLOCK nor a V2 PERF_DATA_HEADER"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := file("capture", tc.data)
			data, kind, err := readCapture(p, "BLOB", &stdinOnce{})
			if tc.wantErr != "" {
				if err == nil || !strings.HasSuffix(err.Error(), "("+tc.wantErr+")") {
					t.Fatalf("have error %v, want one ending in (%s)", err, tc.wantErr)
				}
				return
			}
			if err != nil || kind != tc.wantKind || len(data) != len(tc.data) {
				t.Fatalf("have %v, %d bytes, %v; want %v, %d bytes", kind, len(data), err, tc.wantKind, len(tc.data))
			}
		})
	}
}

func TestParseMixedArgs(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		wantPos string
		wantF   string
	}{
		{[]string{"a", "b"}, "a b", ""},
		{[]string{"-f", "csv", "a", "b"}, "a b", "csv"},
		{[]string{"a", "-f", "csv", "b"}, "a b", "csv"},
		{[]string{"a", "b", "-f", "csv"}, "a b", "csv"},
		{[]string{"a", "--", "-f", "b"}, "a -f b", ""},
	} {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		f := fs.String("f", "", "")
		pos, err := parseArgs(fs, tc.args)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(pos, " ") != tc.wantPos || *f != tc.wantF {
			t.Errorf("%q: have %q and -f %q, want %q and %q", tc.args, pos, *f, tc.wantPos, tc.wantF)
		}
	}
}
