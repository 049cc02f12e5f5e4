package main

import (
	"errors"
	"os"
	"strconv"

	"github.com/perfcalc/perfcalc/analysis/palxml"
)

// thresholdLimit bounds a threshold file: palxml's bound of a document
// (PAL's largest is about 330 KB), so that a larger file is refused before
// it is read.
var thresholdLimit = inputLimit{palxml.MaxInput, "a threshold file"}

// thresholdFiles reads the threshold files of one analyze run for
// palxml.LoadFiles: regular files only (a named pipe or /dev/stdin, which
// would block or be consumed, is refused before it is read), each
// identified by its device and inode (os.SameFile) and read once however
// many names reach it (another spelling of its path, a link, the loads of
// --set), of at most thresholdLimit bytes. The files read are inputs that
// -o may not replace (inputs).
type thresholdFiles struct {
	files []thresholdFile
}

// thresholdFile is a file read: the name it was first read by, its
// identity and bytes.
type thresholdFile struct {
	name string
	info os.FileInfo
	data []byte
}

// read returns the file name, identified by its index among the files
// read.
func (t *thresholdFiles) read(name string) (palxml.File, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return palxml.File{}, err
	}
	if err := regular(name, fi); err != nil {
		return palxml.File{}, err
	}
	for i := range t.files {
		if os.SameFile(t.files[i].info, fi) {
			return palxml.File{Data: t.files[i].data, ID: strconv.Itoa(i)}, nil
		}
	}
	if fi.Size() > thresholdLimit.max {
		return palxml.File{}, tooLarge(name, fi.Size(), thresholdLimit)
	}
	// Opened without blocking (a file replaced by a named pipe since the
	// Stat), then checked to be the file stated.
	f, err := os.OpenFile(name, os.O_RDONLY|openNonBlocking, 0)
	if err != nil {
		return palxml.File{}, err
	}
	defer f.Close()
	ofi, err := f.Stat()
	if err != nil {
		return palxml.File{}, err
	}
	if err := regular(name, ofi); err != nil {
		return palxml.File{}, err
	}
	if !os.SameFile(fi, ofi) {
		return palxml.File{}, &fileError{name, errors.New("replaced by another file while it was opened")}
	}
	data, err := readBounded(f, name, ofi.Size(), thresholdLimit)
	if err != nil {
		return palxml.File{}, err
	}
	t.files = append(t.files, thresholdFile{name, ofi, data})
	return palxml.File{Data: data, ID: strconv.Itoa(len(t.files) - 1)}, nil
}

// regular refuses a file that is not a regular file (fi: its Stat).
func regular(name string, fi os.FileInfo) error {
	switch {
	case fi.Mode().IsRegular():
		return nil
	case fi.IsDir():
		return &fileError{name, errors.New("is a folder")}
	}
	kind := irregular(name, fi.Mode())
	if kind == "" {
		kind = "a special file"
	}
	return &fileError{name, errors.New("is " + kind + ", not a regular file: threshold files are read from regular files only")}
}

// reader returns the read function of palxml.LoadFiles: t.read, a name
// not found retried as Windows finds it, differing only in case
// (SP2013.xml inherits "quicksystemoverview.xml"; palxml.FoldReader).
func (t *thresholdFiles) reader() func(string) (palxml.File, error) {
	return palxml.FoldReader(t.read, func(dir string) ([]string, error) {
		entries, err := os.ReadDir(dir)
		names := make([]string, 0, len(entries))
		for _, e := range entries {
			if !e.IsDir() {
				names = append(names, e.Name())
			}
		}
		return names, err
	})
}

// inputs returns the files read, as inputs that -o may not replace.
func (t *thresholdFiles) inputs() []namedInput {
	in := make([]namedInput, len(t.files))
	for i, f := range t.files {
		in[i] = namedInput{f.name, "a threshold file read (--thresholds or its INHERITANCE)"}
	}
	return in
}
