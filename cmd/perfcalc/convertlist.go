package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine/blg"
)

// A log's outputs in convert's folder DIR are decided by the log's
// identity, not by its file name: every Windows data collector names its
// log DataCollector01.blg, and a fleet's logs of one name must neither
// skip, replace nor delete each other.
//
// The identity is the SHA-256 of the log's prologue (logIdentity): its
// header with the fields Windows rewrites while it writes the log zeroed,
// and the first record after it (the counter list: every counter path,
// machine included). It does not change as the log grows, and a copy of a
// log has the log's identity.
//
// A log's outputs are named after the log's file name (its slot): NAME
// (DIR/NAME.parquet, DIR/machine=…/date=…/NAME.parquet) where that name is
// free or the log's own, else NAME~ID, ID the identity's first 12 hex
// digits. DIR/_perfcalc/SLOT.parts (--partition) or SLOT.EXT.parts (one
// file per log) records the identity and each file written with its size
// and modification time; it tells a later run whether the log is up to
// date, whose a name is, and which of a log's old files it may remove:
// only the files its own list names, inside DIR, reached through no
// symbolic link, whose size and time are still the recorded ones.

// listHeader is the first line of a list of outputs.
const listHeader = "perfcalc convert outputs 1"

// identityDigits is the number of the identity's hex digits in a NAME~ID.
const identityDigits = 12

// outputList is a log's list of outputs: its identity and its files.
type outputList struct {
	id    string // hex SHA-256 (logIdentity)
	files []listedFile
}

// listedFile is a file of a list: its path relative to DIR (slashes) and
// its size and modification time (Unix nanoseconds) when it was written.
type listedFile struct {
	rel   string
	size  int64
	mtime int64
}

// logIdentity returns the identity of the .blg log r (size bytes) as 64 hex
// digits: the SHA-256 of "perfcalc log identity 1\n", then the log header
// event of the first buffer (its system trace header, TRACE_LOGFILE_HEADER,
// logger and file names: StartTime, the time zone, PerfFreq, …) with the
// fields Windows updates while the log is written or when it closes it
// (EndTime, BuffersWritten, EventsLost, BuffersLost) as zeros, then the
// whole event that follows it in the first buffer, if any (in PDH's logs
// the counter list's first part: every counter path, machines included).
// The Python package's perfcalc.spark.log_identity is the same function.
func logIdentity(r io.ReaderAt, size int64) (string, error) {
	var hb [blg.BufferHeaderSize]byte
	if size < int64(len(hb)) {
		return "", errors.New("not a .blg log: shorter than a buffer header")
	}
	if _, err := r.ReadAt(hb[:], 0); err != nil {
		return "", err
	}
	bh, err := blg.ParseBufferHeader(hb[:], 0)
	if err != nil {
		return "", err
	}
	used := int64(bh.Offset)
	if used > size {
		used = size
	}
	b := make([]byte, used)
	if _, err := r.ReadAt(b, 0); err != nil && !(errors.Is(err, io.EOF) && len(b) == 0) {
		return "", err
	}
	ev, rest, ok := prologue(b)
	if !ok {
		return "", errors.New("not a .blg log: no log header in the first buffer")
	}
	h := sha256.New()
	io.WriteString(h, "perfcalc log identity 1\n")
	h.Write(ev)
	h.Write(rest)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// prologue returns, of the first buffer's used bytes b, the log header
// event (a copy, its updated fields zeroed) and the event after it (nil
// where there is none whole), as logIdentity hashes them.
func prologue(b []byte) (header, next []byte, ok bool) {
	const at = blg.BufferHeaderSize
	if len(b) < at+32 || b[at+3]&0xC0 != 0xC0 || (b[at+2] != 1 && b[at+2] != 2) {
		return nil, nil, false
	}
	ptr := 4
	if b[at+2] == 2 {
		ptr = 8
	}
	n := int(b[at+4]) | int(b[at+5])<<8
	t := (56 + 2*ptr + 172 + 7) &^ 7 // BootTime's offset in TRACE_LOGFILE_HEADER
	if n < 32+t+32 || at+n > len(b) {
		return nil, nil, false
	}
	header = append([]byte(nil), b[at:at+n]...)
	lf := header[32:]
	clear(lf[16:24]) // EndTime
	clear(lf[36:40]) // BuffersWritten
	clear(lf[48:52]) // EventsLost
	clear(lf[t+28 : t+32])
	off := at + (n+7)&^7
	if off+6 > len(b) {
		return header, nil, true
	}
	var size int
	if b[off+2] == 1 || b[off+2] == 2 { // a system event: Size at +4
		size = int(b[off+4]) | int(b[off+5])<<8
	} else {
		size = int(b[off]) | int(b[off+1])<<8
	}
	if size < 6 || off+size > len(b) {
		return header, nil, true
	}
	return header, b[off : off+size], true
}

// fileIdentity is logIdentity of the regular file name; ok is false for
// what is not a regular file (a stream is identified once opened).
func fileIdentity(name string) (id string, ok bool, err error) {
	if fi, err := os.Stat(name); err != nil || !fi.Mode().IsRegular() {
		return "", false, err // opening a named pipe would wait for its writer
	}
	f, err := os.Open(name)
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return "", false, err
	}
	id, err = logIdentity(f, fi.Size())
	return id, err == nil, err
}

// escapeField writes a field of a line of the files the commands write
// and read back (convert's lists' paths, relog's --redact-map's machine
// names) with its control characters, DEL and % as %XX, so that a name
// from a log or a folder is one field of one line: it cannot end the line
// and forge another, nor lose a trailing CR to a reader.
func escapeField(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c == 0x7f || c == '%' {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// text returns the list as it is written.
func (l *outputList) text() string {
	var b strings.Builder
	b.WriteString(listHeader + "\nlog " + l.id + "\n")
	for _, f := range l.files {
		fmt.Fprintf(&b, "file %d %d %s\n", f.size, f.mtime, escapeField(f.rel))
	}
	return b.String()
}

// readList reads a list of outputs. A file that is not a list convert
// writes (another format, an older perfcalc's list, a path that is
// absolute, empty or climbs out of DIR) is an error: it proves nothing.
func readList(name string) (*outputList, error) {
	fi, err := os.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > 64<<20 {
		return nil, fmt.Errorf("%s: not a list of convert's", name)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	bad := func(line string) error { return fmt.Errorf("%s: %q is not a line of convert's lists", name, line) }
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	l := &outputList{}
	for i := 0; sc.Scan(); i++ {
		line := sc.Text()
		switch {
		case i == 0:
			if line != listHeader {
				return nil, bad(line)
			}
		case i == 1:
			id, ok := strings.CutPrefix(line, "log ")
			if _, err := hex.DecodeString(id); !ok || err != nil || len(id) != 2*sha256.Size {
				return nil, bad(line)
			}
			l.id = id
		default:
			fields := strings.SplitN(line, " ", 4)
			if len(fields) != 4 || fields[0] != "file" {
				return nil, bad(line)
			}
			size, err1 := strconv.ParseInt(fields[1], 10, 64)
			mtime, err2 := strconv.ParseInt(fields[2], 10, 64)
			rel, err3 := unescapeField(fields[3])
			if err1 != nil || err2 != nil || err3 != nil || !localPath(rel) {
				return nil, bad(line)
			}
			l.files = append(l.files, listedFile{rel: rel, size: size, mtime: mtime})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if l.id == "" {
		return nil, fmt.Errorf("%s: not a list of convert's", name)
	}
	return l, nil
}

// unescapeField undoes escapeField.
func unescapeField(s string) (string, error) {
	if !strings.Contains(s, "%") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", errors.New("a bad escape")
		}
		v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			return "", err
		}
		b.WriteByte(byte(v))
		i += 2
	}
	return b.String(), nil
}

// localPath reports whether rel (slashes) names a file inside DIR as
// convert writes one: relative, no empty, "." or ".." element, no
// backslash or NUL (a separator or an end elsewhere).
func localPath(rel string) bool {
	if rel == "" || strings.ContainsAny(rel, "\\\x00") || filepath.IsAbs(filepath.FromSlash(rel)) || filepath.VolumeName(filepath.FromSlash(rel)) != "" {
		return false
	}
	for _, e := range strings.Split(rel, "/") {
		if e == "" || e == "." || e == ".." {
			return false
		}
	}
	return true
}

// lstatInside returns the file rel (slashes) of dir, reached through no
// symbolic link: every folder on its way is a real folder, and the file
// itself is a regular file.
func lstatInside(dir, rel string) (os.FileInfo, error) {
	if !localPath(rel) {
		return nil, fmt.Errorf("%q is not a path inside the output folder", rel)
	}
	elems := strings.Split(rel, "/")
	p := dir
	for i, e := range elems {
		p = filepath.Join(p, e)
		fi, err := os.Lstat(p)
		if err != nil {
			return nil, err
		}
		switch last := i == len(elems)-1; {
		case fi.Mode()&os.ModeSymlink != 0:
			return nil, fmt.Errorf("%s is a symbolic link", p)
		case !last && !fi.IsDir():
			return nil, fmt.Errorf("%s is not a folder", p)
		case last && !fi.Mode().IsRegular():
			return nil, fmt.Errorf("%s is not a regular file", p)
		default:
			if last {
				return fi, nil
			}
		}
	}
	return nil, os.ErrNotExist
}

// mkdirInside makes the folder rel (slashes) of dir and the folders on its
// way, none of them a symbolic link: convert writes nothing through a link
// into a folder elsewhere.
func mkdirInside(dir, rel string) error {
	p := dir
	for _, e := range strings.Split(rel, "/") {
		if e == "" || e == "." || e == ".." {
			return fmt.Errorf("%q is not a folder inside the output folder", rel)
		}
		p = filepath.Join(p, e)
		err := os.Mkdir(p, 0o755)
		if err != nil && !errors.Is(err, os.ErrExist) {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		if !fi.IsDir() || fi.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("%s is not a folder (a symbolic link or a file): convert writes nothing through it", p)
		}
	}
	return nil
}

// stamp returns the file rel of dir as a list records it: its size and
// modification time, read through no symbolic link.
func stamp(dir, rel string) (listedFile, error) {
	fi, err := lstatInside(dir, rel)
	if err != nil {
		return listedFile{}, err
	}
	return listedFile{rel: rel, size: fi.Size(), mtime: fi.ModTime().UnixNano()}, nil
}

// proven reports whether the listed file f is still the file convert
// wrote: inside dir, through no link, a regular file of its recorded size
// and modification time.
func proven(dir string, f listedFile) bool {
	have, err := stamp(dir, f.rel)
	return err == nil && have == f
}

// writeList writes the list of outputs name through a temporary file in
// its folder, replacing the name itself (a link there is replaced, not
// followed).
func writeList(name string, l *outputList) error {
	tmp, err := newTempFile(filepath.Dir(name), filepath.Base(name))
	if err != nil {
		return err
	}
	if _, err := io.WriteString(tmp, l.text()); err != nil {
		tmp.discard()
		return err
	}
	return tmp.commit(name, 0o644)
}

// slotNames is where a log's outputs go: the slot (NAME or NAME~ID) and
// the path of its list.
type slotNames struct {
	slot, list string
	// foreign is set where the plain slot's list exists but proves
	// nothing (an older perfcalc's, a hand-made one): why the log took
	// NAME~ID, for the note convert prints.
	foreign error
}

// chooseSlot returns the slot of the log of identity id and file name base
// in outDir (listDir its lists' folder, listExt what follows a slot in a
// list's name, plainOut the file of the plain slot in one-file mode, ""
// with --partition): NAME where NAME's list is the log's, or where NAME is
// free (no list, no file) and no other input of the run has NAME
// (shared); else NAME~ID. A NAME~ID whose list is another log's is an
// error (a log literally named so took it).
func chooseSlot(base, id, listDir, listExt, plainOut string, shared bool) (slotNames, error) {
	plain := slotNames{slot: base, list: filepath.Join(listDir, base+listExt)}
	s := base + "~" + id[:identityDigits]
	suffixed := slotNames{slot: s, list: filepath.Join(listDir, s+listExt)}
	pl, perr := readList(plain.list)
	sl, serr := readList(suffixed.list)
	switch {
	case perr == nil && pl.id == id:
		return plain, nil
	case serr == nil && sl.id == id:
		return suffixed, nil
	case errors.Is(perr, os.ErrNotExist) && !shared:
		if plainOut == "" {
			return plain, nil
		}
		if _, err := os.Lstat(plainOut); errors.Is(err, os.ErrNotExist) {
			return plain, nil
		}
		suffixed.foreign = fmt.Errorf("%s exists and no list proves it this log's (%s is absent)", plainOut, plain.list)
	}
	if perr != nil && !errors.Is(perr, os.ErrNotExist) {
		suffixed.foreign = perr
	}
	if serr == nil {
		return slotNames{}, fmt.Errorf("its outputs' name %s is another log's (%s); convert it into another folder", s, suffixed.list)
	} else if !errors.Is(serr, os.ErrNotExist) {
		return slotNames{}, fmt.Errorf("its outputs' name %s is taken: %v; convert it into another folder", s, serr)
	}
	return suffixed, nil
}

// listUpToDate reports whether the list of outputs list is the log in's
// (identity id), not older than in, and every file it names is still the
// file convert wrote (proven).
func listUpToDate(in, list, id, outDir string) bool {
	if !upToDate(in, list) {
		return false
	}
	l, err := readList(list)
	if err != nil || l.id != id {
		return false
	}
	for _, f := range l.files {
		if !proven(outDir, f) {
			return false
		}
	}
	return true
}

// removeUnlisted removes the files of the log's earlier list old that the
// new list does not name, each only where it is still the file convert
// wrote (proven): a stale or forged list removes nothing else.
func removeUnlisted(outDir string, old, now *outputList) {
	if old == nil || old.id != now.id {
		return
	}
	keep := map[string]bool{}
	for _, f := range now.files {
		keep[f.rel] = true
	}
	for _, f := range old.files {
		if !keep[f.rel] && proven(outDir, f) {
			os.Remove(filepath.Join(outDir, filepath.FromSlash(f.rel)))
		}
	}
}

// sameContent reports whether the files a and b hold the same bytes,
// reading both in step (a log's two copies are compared only where they
// share an identity, so rarely and at the cost of reading them once).
func sameContent(a, b string) (bool, error) {
	fa, err := os.Open(a)
	if err != nil {
		return false, err
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return false, err
	}
	defer fb.Close()
	sa, err := fa.Stat()
	if err != nil {
		return false, err
	}
	sb, err := fb.Stat()
	if err != nil || sa.Size() != sb.Size() {
		return false, err
	}
	if os.SameFile(sa, sb) {
		return true, nil
	}
	ba, bb := make([]byte, 256<<10), make([]byte, 256<<10)
	for {
		na, ea := io.ReadFull(fa, ba)
		nb, eb := io.ReadFull(fb, bb)
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return false, nil
		}
		if ea == io.EOF || ea == io.ErrUnexpectedEOF {
			return eb == io.EOF || eb == io.ErrUnexpectedEOF, nil
		}
		if ea != nil {
			return false, ea
		}
		if eb != nil {
			return false, eb
		}
	}
}
