package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// partialSuffix names the file that --keep-partial keeps the output of a
// failed run in: OUT.partial beside OUT.
const partialSuffix = ".partial"

// writeOutput sends a command's output, produced by write, where -o names
// it:
//
//   - "" or "-": standard output, as it comes.
//   - A file that is not a regular file (/dev/null, /dev/stdout, a named
//     pipe, a terminal): written to directly, as it comes.
//   - A regular file or a new one: written to a temporary file in the same
//     folder (unnamed where the system offers it, see tempfile.go), which
//     replaces path in one rename once write, Sync and Close have all
//     succeeded. When anything fails (write's error included, such as a
//     damage found in the input half-way), path is left as it was, and the
//     partial output is removed, or with keepPartial renamed to
//     path.partial. A new file gets mode 0644 (less the umask); a replaced
//     one keeps its mode. A symbolic link is followed: its target is
//     replaced.
//
// It returns write's error or the file's, and when the output did not
// reach path, a note that says where it went, for the user.
func writeOutput(path string, stdout io.Writer, keepPartial bool, write func(w io.Writer) error) (note string, err error) {
	if path == "" || path == stdinName {
		return "", write(stdout)
	}
	target := path
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		target = resolved
	}
	perm := os.FileMode(0o644)
	switch fi, err := os.Stat(target); {
	case err == nil && fi.IsDir():
		return "", fmt.Errorf("-o %s: is a folder", path)
	case err == nil && !fi.Mode().IsRegular():
		return writeDirect(path, write)
	case err == nil:
		perm = fi.Mode().Perm()
	case !errors.Is(err, os.ErrNotExist):
		return "", err
	}
	dir := absDir(target)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("-o %s: the folder %s does not exist", path, filepath.Dir(path))
	}
	tmp, err := newTempFile(dir, filepath.Base(target))
	if err != nil {
		return "", fmt.Errorf("-o %s: %v", path, err)
	}
	if werr := write(tmp); werr != nil {
		if !keepPartial {
			tmp.discard()
			return path + " is left as it was (--keep-partial keeps the partial output in " + path + partialSuffix + ")", werr
		}
		if err := tmp.commit(target+partialSuffix, perm); err != nil {
			return path + " is left as it was; keeping the partial output failed: " + err.Error(), werr
		}
		return "the output up to the failure is in " + path + partialSuffix + "; " + path + " is left as it was", werr
	}
	if err := tmp.commit(target, perm); err != nil {
		return "", fmt.Errorf("-o %s: %v", path, err)
	}
	return "", nil
}

// writeDirect writes to a file that is not a regular file, as it comes.
func writeDirect(path string, write func(w io.Writer) error) (string, error) {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return "", err
	}
	err = write(f)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("-o %s: %v", path, cerr)
	}
	return "", err
}

// finishOutput reports how a command's output ended and returns its exit
// status: a damage of the input (which write returned, named with its
// input), or another error, then the note of writeOutput.
func finishOutput(stderr io.Writer, cmd string, damage error, note string, err error) int {
	if damage != nil {
		err = damage
	}
	if err == nil {
		return exitOK
	}
	status := failCommand(stderr, cmd, err)
	if note != "" {
		fmt.Fprintf(stderr, "perfcalc %s: %s\n", cmd, note)
	}
	return status
}
