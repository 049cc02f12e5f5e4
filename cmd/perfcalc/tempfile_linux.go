package main

import (
	"errors"
	"math/rand/v2"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// openUnnamed opens a new unnamed file in dir (open(2) with O_TMPFILE): it
// exists only while it is open, unless linkUnnamed gives it a name. It
// fails on kernels and file systems that do not offer O_TMPFILE.
func openUnnamed(dir string) (*os.File, error) {
	return os.OpenFile(dir, os.O_RDWR|unix.O_TMPFILE, 0o644)
}

// linkUnnamed gives the unnamed file f a new name in dir, prefix followed
// by random digits, with linkat(2) on its /proc/self/fd entry, and returns
// it.
func linkUnnamed(f *os.File, dir, prefix string) (string, error) {
	proc := "/proc/self/fd/" + strconv.Itoa(int(f.Fd()))
	for range 100 {
		name := dir + string(os.PathSeparator) + prefix + strconv.FormatUint(rand.Uint64()%1e9, 10)
		err := unix.Linkat(unix.AT_FDCWD, proc, unix.AT_FDCWD, name, unix.AT_SYMLINK_FOLLOW)
		if err == nil {
			return name, nil
		}
		if !errors.Is(err, unix.EEXIST) {
			return "", err
		}
	}
	return "", errors.New(dir + ": no free temporary name")
}
