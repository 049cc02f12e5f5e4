// Package blgrename rewrites the names of a perfmon binary log (.blg): the
// objects and counters of its counter list and the names of its embedded
// name table, keeping every other event byte for byte (samples, trailer,
// the system header). It makes the localized logs of the translation
// tests (a real log with German, French or Spanish names) without a .blg
// writer: records are reassembled from their parts, rewritten, split
// again, and the events laid out in buffers of the log's own size, as
// engine/blg reads them. It serves tests only.
package blgrename

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strconv"
	"unicode/utf16"
)

var le = binary.LittleEndian

// Layout, as engine/blg documents it.
const (
	bufHeader   = 0x48 // WMI_BUFFER_HEADER
	eventHeader = 48   // EVENT_TRACE_HEADER
	partHeader  = 24   // log GUID, part index, part count
	sysHeader   = 32   // SYSTEM_TRACE_HEADER
	listHeader  = 8    // the counter list's header
	entryHead   = 52   // a counter-list entry's fixed part
	noString    = 0xFFFFFFFF
	typeList    = 0x20
	typeNames   = 0x24
)

var pdhProvider = []byte{0xb3, 0x3b, 0x3f, 0x93, 0x3e, 0x94, 0x0d, 0x49, 0x9c, 0xed, 0x3c, 0xbb, 0x14, 0xc1, 0x44, 0x79}

// Names says how to rename: Object and Counter rename a counter-list
// entry's object and counter (the object's name as the log has it);
// Table renames a name of the embedded name table. A nil function keeps
// the names.
type Names struct {
	Object  func(object string) string
	Counter func(object, counter string) string
	Table   func(name string) string
}

// item is an event kept as it is, or a reassembled record to write again.
type item struct {
	raw  []byte // an event kept byte for byte
	head []byte // a record: its first part's event and part headers
	data []byte // a record: its data
}

// Rewrite returns log with its names renamed.
func Rewrite(log []byte, n Names) ([]byte, error) {
	if len(log) < bufHeader+sysHeader+0x110 {
		return nil, errors.New("blgrename: too short for a log")
	}
	bufSize := int(le.Uint32(log))
	if bufSize < 1024 || len(log)%bufSize != 0 {
		return nil, errors.New("blgrename: BufferSize " + strconv.Itoa(bufSize) + " does not divide the log")
	}
	var items []item
	var cur *item // the record being reassembled
	for b := 0; b < len(log); b += bufSize {
		buf := log[b : b+bufSize]
		used := int(le.Uint32(buf[0x30:]))
		if used < bufHeader || used > bufSize {
			return nil, errors.New("blgrename: buffer at " + strconv.Itoa(b) + ": bad Offset")
		}
		for p := bufHeader; p+4 <= used; {
			ev := buf[p:used]
			var size int
			if ev[2] == 1 || ev[2] == 2 { // a system header, Size at +4
				size = int(le.Uint16(ev[4:]))
			} else {
				size = int(le.Uint16(ev))
			}
			if size < 4 || size > len(ev) {
				return nil, errors.New("blgrename: event at " + strconv.Itoa(b+p) + ": bad Size")
			}
			ev = ev[:size]
			p += (size + 7) &^ 7
			pdh := size >= eventHeader+partHeader && (ev[2] == 0x0A || ev[2] == 0x14) && bytes.Equal(ev[24:40], pdhProvider)
			if !pdh || (ev[4] != typeList && ev[4] != typeNames) {
				items = append(items, item{raw: ev})
				continue
			}
			index, count := le.Uint32(ev[64:]), le.Uint32(ev[68:])
			if index == 1 {
				items = append(items, item{head: ev[:eventHeader+partHeader]})
				cur = &items[len(items)-1]
			}
			if cur == nil {
				return nil, errors.New("blgrename: a record part without its first")
			}
			cur.data = append(cur.data, ev[eventHeader+partHeader:]...)
			if index == count {
				cur = nil
			}
		}
	}
	for i := range items {
		it := &items[i]
		if it.head == nil {
			continue
		}
		var err error
		if it.head[4] == typeList {
			it.data, err = renameList(it.data, n)
		} else {
			it.data, err = renameChunk(it.data, n.Table)
		}
		if err != nil {
			return nil, err
		}
	}
	w := writer{size: bufSize, template: log[:bufHeader]}
	w.start()
	for _, it := range items {
		if it.raw != nil {
			w.put(it.raw)
			continue
		}
		maxPart := min(0xFFF8-eventHeader-partHeader, bufSize-bufHeader-eventHeader-partHeader)
		count := max(1, (len(it.data)+maxPart-1)/maxPart)
		for k := range count {
			part := it.data[k*maxPart : min((k+1)*maxPart, len(it.data))]
			ev := append(append([]byte(nil), it.head...), part...)
			le.PutUint16(ev, uint16(len(ev)))
			le.PutUint32(ev[64:], uint32(k+1))
			le.PutUint32(ev[68:], uint32(count))
			w.put(ev)
		}
	}
	out := w.bytes()
	// TRACE_LOGFILE_HEADER.BuffersWritten.
	le.PutUint32(out[bufHeader+sysHeader+36:], uint32(len(out)/bufSize))
	return out, nil
}

type writer struct {
	size     int
	template []byte
	out      []byte
	cur      int // start of the current buffer in out
	used     int
}

func (w *writer) start() {
	w.cur = len(w.out)
	w.out = append(w.out, make([]byte, w.size)...)
	copy(w.out[w.cur:], w.template)
	w.used = bufHeader
}

func (w *writer) end() {
	b := w.out[w.cur : w.cur+w.size]
	for i := w.used; i < w.size; i++ {
		b[i] = 0xFF
	}
	le.PutUint32(b[0x30:], uint32(w.used))
	le.PutUint64(b[0x18:], uint64(w.cur/w.size))
}

func (w *writer) put(ev []byte) {
	n := (len(ev) + 7) &^ 7
	if w.used+n > w.size {
		w.end()
		w.start()
	}
	copy(w.out[w.cur+w.used:], ev)
	for i := w.used + len(ev); i < w.used+n; i++ {
		w.out[w.cur+i] = 0
	}
	w.used += n
}

func (w *writer) bytes() []byte {
	w.end()
	return w.out
}

// utf16z decodes the NUL-terminated UTF-16LE string at the start of b.
func utf16z(b []byte) (string, int, bool) {
	var u []uint16
	for i := 0; i+1 < len(b); i += 2 {
		c := le.Uint16(b[i:])
		if c == 0 {
			return string(utf16.Decode(u)), i + 2, true
		}
		u = append(u, c)
	}
	return "", 0, false
}

func appendUTF16Z(dst []byte, s string) []byte {
	for _, c := range utf16.Encode([]rune(s)) {
		dst = le.AppendUint16(dst, c)
	}
	return append(dst, 0, 0)
}

// renameList rewrites a counter-list record's entries.
func renameList(b []byte, n Names) ([]byte, error) {
	if len(b) < listHeader {
		return nil, errors.New("blgrename: counter list too short")
	}
	hl := int(le.Uint16(b[4:]))
	out := append([]byte(nil), b[:hl]...)
	for p := hl; p < len(b); {
		size := int(le.Uint32(b[p:]))
		if size < entryHead || p+size > len(b) {
			return nil, errors.New("blgrename: counter-list entry at " + strconv.Itoa(p) + ": bad Size")
		}
		e := b[p : p+size]
		p += size
		var strs [5]string // machine, object, instance, parent, counter
		var has [5]bool
		for i, at := range []int{28, 32, 36, 40, 48} {
			off := le.Uint32(e[at:])
			if off == noString {
				continue
			}
			if entryHead+int(off) > len(e) {
				return nil, errors.New("blgrename: a string outside its entry")
			}
			s, _, ok := utf16z(e[entryHead+int(off):])
			if !ok {
				return nil, errors.New("blgrename: a string without its NUL")
			}
			strs[i], has[i] = s, true
		}
		obj := strs[1]
		if n.Object != nil {
			strs[1] = n.Object(obj)
		}
		if n.Counter != nil && strs[4] != "*" {
			strs[4] = n.Counter(obj, strs[4])
		}
		head := append([]byte(nil), e[:entryHead]...)
		var sb []byte
		for i, at := range []int{28, 32, 36, 40, 48} {
			if !has[i] {
				le.PutUint32(head[at:], noString)
				continue
			}
			le.PutUint32(head[at:], uint32(len(sb)))
			sb = appendUTF16Z(sb, strs[i])
		}
		for len(sb)%8 != 4 {
			sb = append(sb, 0)
		}
		le.PutUint32(head, uint32(entryHead+len(sb)))
		out = append(append(out, head...), sb...)
	}
	return out, nil
}

// renameChunk rewrites the names of a name-table chunk: the machine name,
// then "index\0name\0" pairs.
func renameChunk(b []byte, table func(string) string) ([]byte, error) {
	machine, n, ok := utf16z(b)
	if !ok {
		return nil, errors.New("blgrename: a name-table chunk without its machine")
	}
	out := appendUTF16Z(nil, machine)
	for p := n; p < len(b); {
		idx, k, ok := utf16z(b[p:])
		if !ok {
			return nil, errors.New("blgrename: a name-table index without its NUL")
		}
		p += k
		if idx == "" { // a final NUL
			out = append(out, 0, 0)
			continue
		}
		name, k, ok := utf16z(b[p:])
		if !ok {
			return nil, errors.New("blgrename: a name-table name without its NUL")
		}
		p += k
		if table != nil && idx != "1" {
			name = table(name)
		}
		out = appendUTF16Z(appendUTF16Z(out, idx), name)
	}
	return out, nil
}
