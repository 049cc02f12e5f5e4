package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
)

// writeFileAtomic writes a file through write: into a temporary file in the
// same directory, renamed over path only once write, Sync and Close have
// all succeeded. When anything fails, the temporary file is removed and a
// file already at path is left as it was: the output is complete or absent,
// never half-written. A new file gets mode 0644; an existing file keeps its
// mode.
func writeFileAtomic(path string, write func(w io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if base == "" {
		return errors.New(path + ": not a file name")
	}
	perm := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return errors.New(path + ": not a regular file")
		}
		perm = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Chmod(tmp, perm); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
