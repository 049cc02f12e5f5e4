package main

import (
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
)

// A temporary file never outlives perfcalc: on Linux it has no name until
// it is complete (O_TMPFILE, see createUnnamed), so that even SIGKILL
// leaves nothing behind; a named one (other systems, file systems without
// O_TMPFILE, the instant between linking an unnamed file and renaming it
// over its destination) is removed when its work fails, and on SIGINT or
// SIGTERM, after which perfcalc ends by the same signal (see dieBy), as if
// it had not caught it: the shell reports status 130 or 143.

// temps holds the names of the temporary files that exist.
var temps struct {
	sync.Mutex
	names   map[string]bool
	handler sync.Once
}

// track records a named temporary file, to remove it on SIGINT or SIGTERM.
// The caller holds temps.
func track(name string) {
	temps.handler.Do(func() {
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
		go func() {
			sig := <-sigs
			temps.Lock() // held until exit: no file is named or renamed meanwhile
			for name := range temps.names {
				os.Remove(name)
			}
			dieBy(sig)
		}()
	})
	if temps.names == nil {
		temps.names = map[string]bool{}
	}
	temps.names[name] = true
}

// untrack forgets a temporary file that was removed or renamed. The caller
// holds temps.
func untrack(name string) { delete(temps.names, name) }

// tempFile is an output being written in the folder of its destination.
type tempFile struct {
	*os.File
	dir, base string
	name      string // the file's name; "" while it has none (O_TMPFILE)
}

// noUnnamed makes newTempFile and createUnnamed use named files only (for
// tests).
var noUnnamed bool

// newTempFile creates a temporary file in dir for the destination base:
// an unnamed one where the system offers it, else ".base.tmpNNN".
func newTempFile(dir, base string) (*tempFile, error) {
	if f, err := openUnnamed(dir); err == nil && !noUnnamed {
		return &tempFile{File: f, dir: dir, base: base}, nil
	} else if err == nil {
		f.Close()
	}
	temps.Lock()
	defer temps.Unlock()
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return nil, err
	}
	track(f.Name())
	return &tempFile{File: f, dir: dir, base: base, name: f.Name()}, nil
}

// commit makes the complete file dest (in the temporary file's folder),
// replacing what dest held in one rename, with mode perm. It closes the
// file.
func (t *tempFile) commit(dest string, perm os.FileMode) error {
	if err := t.Sync(); err != nil {
		t.discard()
		return err
	}
	if err := t.Chmod(perm); err != nil {
		t.discard()
		return err
	}
	temps.Lock()
	defer temps.Unlock()
	if t.name == "" {
		// Give the unnamed file a name: a hard link (through
		// /proc/self/fd), or where that fails a named copy.
		name, err := linkUnnamed(t.File, t.dir, "."+t.base+".tmp")
		if err != nil {
			name, err = t.copyToNamed(perm)
		}
		if err != nil {
			t.Close()
			return err
		}
		track(name)
		t.name = name
	}
	err := t.Close()
	if err == nil {
		err = os.Rename(t.name, dest)
	}
	if err != nil {
		os.Remove(t.name)
	}
	untrack(t.name)
	return err
}

// copyToNamed copies the unnamed file into a new named temporary file. The
// caller holds temps.
func (t *tempFile) copyToNamed(perm os.FileMode) (string, error) {
	f, err := os.CreateTemp(t.dir, "."+t.base+".tmp*")
	if err != nil {
		return "", err
	}
	_, err = t.Seek(0, io.SeekStart)
	if err == nil {
		_, err = io.Copy(f, t.File)
	}
	if err == nil {
		err = f.Chmod(perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// discard closes the temporary file and removes it.
func (t *tempFile) discard() {
	t.Close()
	if t.name != "" {
		temps.Lock()
		os.Remove(t.name)
		untrack(t.name)
		temps.Unlock()
	}
}

// createUnnamed creates a temporary file in dir that is never linked
// anywhere (a spool), and returns it with a function that removes it once
// closed: an unnamed file where the system offers it; else a named one,
// removed at once where open files can be removed (Unix), or when done is
// called (and on SIGINT or SIGTERM).
func createUnnamed(dir string) (f *os.File, done func(), err error) {
	if f, err := openUnnamed(dir); err == nil && !noUnnamed {
		return f, func() {}, nil
	} else if err == nil {
		f.Close()
	}
	temps.Lock()
	defer temps.Unlock()
	if f, err = os.CreateTemp(dir, ".perfcalc-spool*"); err != nil {
		return nil, nil, err
	}
	name := f.Name()
	if os.Remove(name) == nil {
		return f, func() {}, nil
	}
	track(name)
	return f, func() {
		temps.Lock()
		os.Remove(name)
		untrack(name)
		temps.Unlock()
	}, nil
}

// absDir returns the folder of path as an absolute path, for the unnamed
// file's link (which the rename then moves over path).
func absDir(path string) string {
	d := filepath.Dir(path)
	if a, err := filepath.Abs(d); err == nil {
		return a
	}
	return d
}
