package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestWriteOutput(t *testing.T) {
	errWrite := errors.New("damaged input")
	half := func(w io.Writer) error {
		io.WriteString(w, "half of the ne")
		return errWrite
	}
	for _, tc := range []struct {
		name        string
		old         string // "" for no file before
		keepPartial bool
		write       func(w io.Writer) error
		want        string // the file after; "" for absent, "\x00" for empty
		partial     string // OUT.partial after; "" for absent
		wantErr     error
	}{
		{"new file", "", false, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }, "new", "", nil},
		{"replace", "old", false, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }, "new", "", nil},
		{"failing write keeps the old file", "old", false, half, "old", "", errWrite},
		{"failing write makes no file", "", false, half, "", "", errWrite},
		{"keep-partial keeps the old file and the partial output", "old", true, half, "old", "half of the ne", errWrite},
		{"keep-partial without an old file", "", true, half, "", "half of the ne", errWrite},
		{"empty output", "old", false, func(w io.Writer) error { return nil }, "\x00", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.csv")
			if tc.old != "" {
				if err := os.WriteFile(path, []byte(tc.old), 0o640); err != nil {
					t.Fatal(err)
				}
			}
			note, err := writeOutput(path, nil, tc.keepPartial, tc.write)
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("have error %v, want %v", err, tc.wantErr)
			}
			if (err != nil) != (note != "") || (tc.partial != "") != strings.Contains(note, "is in "+path+".partial") {
				t.Errorf("note %q for error %v", note, err)
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
			p, perr := os.ReadFile(path + ".partial")
			if tc.partial != string(p) || (tc.partial == "") != os.IsNotExist(perr) {
				t.Errorf("OUT.partial: have %q (%v), want %q", p, perr, tc.partial)
			}
			entries, _ := os.ReadDir(dir)
			want := 0
			if tc.want != "" {
				want++
			}
			if tc.partial != "" {
				want++
			}
			if len(entries) != want {
				t.Errorf("the folder holds %d entries, want %d (no temporary file left)", len(entries), want)
			}
			if fi, err := os.Stat(path); err == nil {
				wantMode := os.FileMode(0o644) &^ umask()
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
		if _, err := writeOutput(dir, nil, false, func(w io.Writer) error { return nil }); err == nil || !strings.Contains(err.Error(), "is a folder") {
			t.Errorf("have %v, want an error that names the folder", err)
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			t.Errorf("the folder is gone: %v", err)
		}
	})
	t.Run("missing folder named as given", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "no", "out.csv")
		_, err := writeOutput(path, nil, false, func(w io.Writer) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "the folder "+filepath.Dir(path)+" does not exist") || strings.Contains(err.Error(), ".tmp") {
			t.Errorf("have %v, want an error naming the folder %s", err, filepath.Dir(path))
		}
	})
	t.Run("a symbolic link's target is replaced", func(t *testing.T) {
		dir := t.TempDir()
		target, link := filepath.Join(dir, "target.csv"), filepath.Join(dir, "link.csv")
		os.WriteFile(target, []byte("old"), 0o600)
		if err := os.Symlink(target, link); err != nil {
			t.Skip(err)
		}
		if _, err := writeOutput(link, nil, false, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(target); string(b) != "new" {
			t.Errorf("the target holds %q", b)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("the link is gone: %v", err)
		}
	})
	t.Run("standard output", func(t *testing.T) {
		var b strings.Builder
		for _, path := range []string{"", "-"} {
			b.Reset()
			if _, err := writeOutput(path, &b, false, half); err != errWrite || b.String() != "half of the ne" {
				t.Errorf("-o %q: have %q, %v", path, b.String(), err)
			}
		}
	})
	t.Run("not a regular file", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("no /dev/null")
		}
		if _, err := writeOutput(os.DevNull, nil, false, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
			t.Errorf("/dev/null: %v", err)
		}
	})
}

// umask returns the process's file mode creation mask.
func umask() os.FileMode {
	dir, err := os.MkdirTemp("", "umask")
	if err != nil {
		return 0
	}
	defer os.RemoveAll(dir)
	f, err := os.OpenFile(filepath.Join(dir, "f"), os.O_CREATE|os.O_WRONLY, 0o777)
	if err != nil {
		return 0
	}
	defer f.Close()
	fi, _ := f.Stat()
	return 0o777 &^ fi.Mode().Perm()
}
