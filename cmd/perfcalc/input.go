package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/relog"
)

// inputLimit is the most perfcalc reads of one kind of input. A regular
// file's size is checked before a byte of it is read; standard input and
// other files that are not regular (pipes, devices) are read up to the
// limit and refused beyond it.
type inputLimit struct {
	max  int64
	kind string // "a capture", …
}

var (
	// captureLimit bounds a capture (V1 blob, V2 result): far above any
	// real HKEY_PERFORMANCE_DATA blob (a busy server's Global query is a
	// few MiB), low enough that a wrong file name cannot exhaust memory.
	captureLimit = inputLimit{256 << 20, "a capture"}
	// tableLimit bounds a name table, a V2 registration or string buffer
	// (a "Counter 009" table is about 100 to 300 KB), as package blg bounds
	// the name table a log carries (blg.MaxRecordSize).
	tableLimit = inputLimit{64 << 20, "a name table or registration"}
	// counterFileLimit bounds a -cf file: 8,192 paths of the longest
	// (PDH_MAX_COUNTER_PATH).
	counterFileLimit = inputLimit{16 << 20, "a counter file"}
	// spoolLimit bounds a .blg log read from standard input or a pipe,
	// which is copied to an unnamed temporary file first (relog reads a
	// log twice: once for its columns, once for its rows).
	spoolLimit = inputLimit{64 << 30, "a log read from a pipe"}
)

// stdinName is the file name that stands for standard input.
const stdinName = "-"

// stdinOnce is standard input for the one input that may be named "-".
type stdinOnce struct {
	r    io.Reader
	used string // what read it: "OLDER", "--names", …
}

// take returns standard input for the input what, or an error when another
// input already took it.
func (s *stdinOnce) take(what string) (io.Reader, error) {
	if s.r == nil {
		return nil, &usageError{"standard input (-) cannot be read here (" + what + ")"}
	}
	if s.used != "" {
		return nil, &usageError{"standard input (-) can be only one input: " + s.used + " and " + what + " both name it"}
	}
	s.used = what
	return s.r, nil
}

// tooLarge is the error for an input of size bytes (−1: unknown, more than
// the limit) over its limit.
func tooLarge(name string, size int64, limit inputLimit) error {
	have := "more than " + byteSize(limit.max)
	if size >= 0 {
		have = strconv.FormatInt(size, 10) + " bytes (not read)"
	}
	return &fileError{name, errors.New(have + "; perfcalc reads at most " + byteSize(limit.max) + " of " + limit.kind)}
}

// fileError is an error of an input file: the file's name as given (or
// "standard input") and what went wrong with it, written "NAME: ERR".
// A caller that names the file already takes Err alone (errors.As).
type fileError struct {
	name string
	err  error
}

func (e *fileError) Error() string { return e.name + ": " + e.err.Error() }
func (e *fileError) Unwrap() error { return e.err }

// readInput reads the whole input name ("-" for standard input, which what
// names in errors), of at most limit bytes: a regular file's size is
// checked before it is read; other inputs are read up to limit + 1 bytes.
func readInput(name, what string, stdin *stdinOnce, limit inputLimit) ([]byte, error) {
	if name == stdinName {
		r, err := stdin.take(what)
		if err != nil {
			return nil, err
		}
		return readBounded(r, "standard input", -1, limit)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s: is a folder", name)
	}
	size := int64(-1)
	if fi.Mode().IsRegular() {
		if size = fi.Size(); size > limit.max {
			return nil, tooLarge(name, size, limit)
		}
	}
	return readBounded(f, name, size, limit)
}

// readBounded reads r to its end, refusing more than limit bytes. size is
// the expected size (−1 when unknown), to size the buffer once.
func readBounded(r io.Reader, name string, size int64, limit inputLimit) ([]byte, error) {
	var buf bytes.Buffer
	if size >= 0 {
		buf.Grow(int(size) + 1)
	}
	n, err := buf.ReadFrom(io.LimitReader(r, limit.max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if n > limit.max {
		return nil, tooLarge(name, -1, limit)
	}
	return buf.Bytes(), nil
}

// openRandom opens the input name for random access: a regular file as it
// is; standard input ("-") and other files that are not regular (a pipe,
// /dev/stdin) copied first to an unnamed temporary file (see
// createUnnamed) of at most spoolLimit bytes, once their first buffer has
// been read and checked (checkLogStart): bytes that are not a log are
// refused as a file of them is, not copied. It returns the input, its
// size and a function that closes it (and removes the copy).
func openRandom(name, what string, stdin *stdinOnce) (io.ReaderAt, int64, func(), error) {
	var src io.Reader
	label := name
	if name == stdinName {
		r, err := stdin.take(what)
		if err != nil {
			return nil, 0, nil, err
		}
		src, label = r, "standard input"
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, 0, nil, err
		}
		fi, err := f.Stat()
		switch {
		case err != nil:
			f.Close()
			return nil, 0, nil, err
		case fi.IsDir():
			f.Close()
			return nil, 0, nil, &fileError{name, errors.New("is a folder")}
		case fi.Mode().IsRegular():
			return f, fi.Size(), func() { f.Close() }, nil
		}
		defer f.Close()
		src = f
	}
	first, err := checkLogStart(src)
	if err != nil {
		return nil, 0, nil, &relog.InputError{Name: name, Err: err}
	}
	spool, done, err := createUnnamed(os.TempDir())
	if err != nil {
		return nil, 0, nil, &fileError{label, fmt.Errorf("a temporary copy: %w", err)}
	}
	closeSpool := func() { spool.Close(); done() }
	n, err := io.Copy(spool, io.LimitReader(io.MultiReader(bytes.NewReader(first), src), spoolLimit.max+1))
	switch {
	case err != nil:
		closeSpool()
		return nil, 0, nil, &fileError{label, fmt.Errorf("copying it to a temporary file: %w", err)}
	case n > spoolLimit.max:
		closeSpool()
		return nil, 0, nil, tooLarge(label, -1, spoolLimit)
	}
	return spoolFile{spool}, n, closeSpool, nil
}

// spoolFile is perfcalc's own copy of a stream (see openRandom), which
// nothing else writes: openLogs does not check it between its readings as
// it checks a log file (stableLog).
type spoolFile struct{ *os.File }

// errFirstBuffer ends the stream that checkLogStart gives the log reader:
// the first buffer is all it checks.
var errFirstBuffer = errors.New("the first buffer is checked")

// checkLogStart reads the first buffer of a log from the stream src (its
// WMI buffer header, then as many bytes as its BufferSize, at most
// blg.MaxBufferSize), and checks them as package blg reads a log: the
// buffer header, the log header and the records it holds. It returns the
// bytes read, to be copied first, and the error that a file of those bytes
// gets, word for word, when they cannot begin a log (bytes of /dev/zero:
// "BufferSize 0 is not a buffer size"). A stream that ends inside its first
// buffer is not judged here: the reader reports it, once copied.
func checkLogStart(src io.Reader) ([]byte, error) {
	first := make([]byte, blg.BufferHeaderSize)
	n, err := io.ReadFull(src, first)
	if err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return first[:n], nil
		}
		return nil, err
	}
	if h, err := blg.ParseBufferHeader(first, 0); err == nil {
		first = append(first, make([]byte, h.BufferSize-blg.BufferHeaderSize)...)
		n, err := io.ReadFull(src, first[blg.BufferHeaderSize:])
		if err != nil {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				return first[:blg.BufferHeaderSize+n], nil
			}
			return nil, err
		}
	}
	_, err = blg.NewStreamReader(io.MultiReader(bytes.NewReader(first), errReader{errFirstBuffer}))
	if err != nil && !errors.Is(err, errFirstBuffer) {
		return nil, err
	}
	return first, nil
}

// errReader is a reader that fails with err.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// byteSize writes n bytes as people read it: "64 GiB", "256 MiB", or the
// number of bytes.
func byteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + " GiB"
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
