//go:build !linux

package main

import (
	"errors"
	"os"
)

var errNoUnnamed = errors.New("unnamed files are a Linux feature")

// openUnnamed fails: only Linux offers unnamed files (O_TMPFILE); callers
// fall back to named temporary files.
func openUnnamed(dir string) (*os.File, error) { return nil, errNoUnnamed }

// linkUnnamed is never called where openUnnamed fails.
func linkUnnamed(f *os.File, dir, prefix string) (string, error) { return "", errNoUnnamed }
