package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileAtomic(t *testing.T) {
	errWrite := errors.New("disk full")
	for _, tc := range []struct {
		name    string
		old     string // "" for no file before
		write   func(w io.Writer) error
		want    string // the file after; "" for absent
		wantErr error
	}{
		{"new file", "", func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }, "new", nil},
		{"replace", "old", func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }, "new", nil},
		{"failing write keeps the old file", "old", func(w io.Writer) error {
			io.WriteString(w, "half of the ne")
			return errWrite
		}, "old", errWrite},
		{"failing write makes no file", "", func(w io.Writer) error {
			io.WriteString(w, "half")
			return errWrite
		}, "", errWrite},
		{"empty output", "old", func(w io.Writer) error { return nil }, "\x00", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.csv")
			if tc.old != "" {
				if err := os.WriteFile(path, []byte(tc.old), 0o640); err != nil {
					t.Fatal(err)
				}
			}
			err := writeFileAtomic(path, tc.write)
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("have error %v, want %v", err, tc.wantErr)
			}
			b, rerr := os.ReadFile(path)
			switch {
			case tc.want == "" && !os.IsNotExist(rerr):
				t.Errorf("have a file %q (%v), want none", b, rerr)
			case tc.want == "\x00" && (rerr != nil || len(b) != 0):
				t.Errorf("have %q (%v), want an empty file", b, rerr)
			case tc.want != "" && tc.want != "\x00" && string(b) != tc.want:
				t.Errorf("have %q (%v), want %q", b, rerr, tc.want)
			}
			entries, _ := os.ReadDir(dir)
			want := 1
			if tc.want == "" {
				want = 0
			}
			if len(entries) != want {
				t.Errorf("the folder holds %d entries, want %d (no temporary file left)", len(entries), want)
			}
			if fi, err := os.Stat(path); err == nil {
				wantMode := os.FileMode(0o644)
				if tc.old != "" {
					wantMode = 0o640
				}
				if fi.Mode().Perm() != wantMode {
					t.Errorf("mode %v, want %v", fi.Mode().Perm(), wantMode)
				}
			}
		})
	}
	t.Run("a folder is not overwritten", func(t *testing.T) {
		dir := t.TempDir()
		if err := writeFileAtomic(dir, func(w io.Writer) error { return nil }); err == nil {
			t.Error("no error")
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			t.Errorf("the folder is gone: %v", err)
		}
	})
	t.Run("missing folder", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "no", "out.csv")
		if err := writeFileAtomic(path, func(w io.Writer) error { return nil }); err == nil {
			t.Error("no error")
		}
	})
}
