package perflibv2

import (
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/internal/text"
	"github.com/perfcalc/perfcalc/engine/wintype"
)

// Reading says how a string buffer's PERF_STRING_COUNTER_HEADER.dwOffset
// values were read. The sources disagree (doc/FORMATS.md §2.1): the SDK's
// perflib.h and its documentation count the offset from the start of the
// PERF_STRING_BUFFER_HEADER block; [MS-PCQ] §2.2.4.4 counts it from the end
// of the PERF_STRING_COUNTER_HEADER array. In both readings 0xFFFFFFFF
// means "no string".
type Reading uint8

const (
	// ReadingSDK: offsets from the start of the block (perflib.h).
	ReadingSDK Reading = iota + 1
	// ReadingMSPCQ: offsets from the end of the PERF_STRING_COUNTER_HEADER
	// array ([MS-PCQ]).
	ReadingMSPCQ
	// ReadingAmbiguous: both readings pass every check (for example, a
	// buffer without strings); the SDK reading is used.
	ReadingAmbiguous
)

// String returns "SDK", "MS-PCQ" or "ambiguous".
func (r Reading) String() string {
	switch r {
	case ReadingSDK:
		return "SDK"
	case ReadingMSPCQ:
		return "MS-PCQ"
	case ReadingAmbiguous:
		return "ambiguous"
	}
	return "Reading(" + itoa(int(r)) + ")"
}

// NoString is the dwOffset of a counter without a string.
const NoString = 0xFFFFFFFF

// StringBuffer is a PERF_STRING_BUFFER_HEADER block (C name
// _STRING_BUFFER_HEADER), as PerfQueryCounterSetRegistrationInfo returns
// for PERF_REG_COUNTER_NAME_STRINGS and PERF_REG_COUNTER_HELP_STRINGS: a
// header, dwCounters PERF_STRING_COUNTER_HEADER records {dwCounterId,
// dwOffset}, then NUL-terminated UTF-16LE strings. It aliases the input
// and is valid while it is; its methods allocate nothing.
type StringBuffer struct {
	Size        uint32 // dwSize: the whole block, strings included
	NumCounters uint32 // dwCounters
	block       []byte // the block, dwSize bytes
	reading     Reading
}

// ParseStrings checks the string buffer in b and decides how to read its
// offsets. Each reading is checked strictly: every offset that is not
// NoString must point, within dwSize and past the PERF_STRING_COUNTER_HEADER
// array, at an even position where a NUL-terminated string lies. When only
// one reading passes, it is used. When both pass, the plausible one is
// preferred: the strings follow the array in the order of the records,
// the first one starting right after the array and each next one at or
// after the end of the one before (increasing offsets). If that does not
// decide either, the result is ReadingAmbiguous and the SDK reading is
// used. When neither passes, the SDK reading's error is returned.
func ParseStrings(b []byte) (StringBuffer, error) {
	s, err := parseStringHeader(b)
	if err != nil {
		return s, err
	}
	_, whySDK := s.check(ReadingSDK)
	_, whyPCQ := s.check(ReadingMSPCQ)
	switch {
	case whySDK != stringOK && whyPCQ != stringOK:
		return StringBuffer{}, s.checkError(ReadingSDK)
	case whySDK != stringOK:
		s.reading = ReadingMSPCQ
	case whyPCQ != stringOK:
		s.reading = ReadingSDK
	default:
		sdk, pcq := s.plausible(ReadingSDK), s.plausible(ReadingMSPCQ)
		switch {
		case sdk && !pcq:
			s.reading = ReadingSDK
		case pcq && !sdk:
			s.reading = ReadingMSPCQ
		default:
			s.reading = ReadingAmbiguous
		}
	}
	return s, nil
}

// ParseStringsAs checks the string buffer in b under one reading (ReadingSDK
// or ReadingMSPCQ), without guessing.
func ParseStringsAs(b []byte, r Reading) (StringBuffer, error) {
	s, err := parseStringHeader(b)
	if err != nil {
		return s, err
	}
	if r != ReadingSDK && r != ReadingMSPCQ {
		return StringBuffer{}, fail("PERF_STRING_BUFFER_HEADER", -1, 0, "", "reading "+r.String()+" is not SDK or MS-PCQ", engine.ErrUnsupported)
	}
	if err := s.checkError(r); err != nil {
		return StringBuffer{}, err
	}
	s.reading = r
	return s, nil
}

func parseStringHeader(b []byte) (StringBuffer, error) {
	const rec = "PERF_STRING_BUFFER_HEADER"
	var s StringBuffer
	if len(b) < StringBufferHeaderSize {
		return s, fail(rec, -1, 0, "", "needs 8 bytes, input has "+itoa(len(b)), engine.ErrTruncated)
	}
	s.Size, s.NumCounters = le32(b, 0), le32(b, 4)
	switch {
	case s.Size < StringBufferHeaderSize:
		return StringBuffer{}, fail(rec, -1, 0, "dwSize", u(s.Size)+" below 8", engine.ErrMalformed)
	case uint64(s.Size) > uint64(len(b)):
		return StringBuffer{}, fail(rec, -1, 0, "dwSize", u(s.Size)+" exceeds the input's "+itoa(len(b))+" bytes", engine.ErrTruncated)
	case uint64(s.NumCounters) > uint64(s.Size-StringBufferHeaderSize)/StringCounterHeaderSize:
		return StringBuffer{}, fail(rec, -1, 4, "dwCounters", u(s.NumCounters)+" PERF_STRING_COUNTER_HEADER records cannot fit in dwSize "+u(s.Size), engine.ErrMalformed)
	}
	s.block = b[:s.Size:s.Size]
	return s, nil
}

// stringsStart is the offset of the byte after the
// PERF_STRING_COUNTER_HEADER array.
func (s *StringBuffer) stringsStart() int {
	return StringBufferHeaderSize + StringCounterHeaderSize*int(s.NumCounters)
}

// position returns where the i-th string starts under reading r, or −1
// for NoString, or −2 for an offset outside the block.
func (s *StringBuffer) position(i int, r Reading) int {
	off := le32(s.block, StringBufferHeaderSize+StringCounterHeaderSize*i+4)
	if off == NoString {
		return -1
	}
	p := uint64(off)
	if r == ReadingMSPCQ {
		p += uint64(s.stringsStart())
	}
	if p >= uint64(len(s.block)) {
		return -2
	}
	return int(p)
}

// Why a string offset fails a reading's checks.
const (
	stringOK = iota
	stringOutside
	stringInHeaders
	stringOdd
	stringNoNUL
)

// check verifies that every offset points, under reading r, at a
// NUL-terminated string after the array and within dwSize, in time linear
// in dwSize. It returns the first failing record and why, or (−1, stringOK);
// it allocates nothing (see checkError).
func (s *StringBuffer) check(r Reading) (int, int) {
	start := s.stringsStart()
	// A string at p has its NUL within the block exactly when p is at or
	// before the last NUL code unit: one backward scan keeps the check
	// linear whatever the offsets (they may all point at one long string).
	lastNUL := -1
	for q := (len(s.block) - 2) &^ 1; q >= start; q -= 2 {
		if s.block[q] == 0 && s.block[q+1] == 0 {
			lastNUL = q
			break
		}
	}
	for i := range int(s.NumCounters) {
		p := s.position(i, r)
		switch {
		case p == -1:
			continue
		case p == -2:
			return i, stringOutside
		case p < start:
			return i, stringInHeaders
		case p%2 != 0:
			return i, stringOdd
		case p > lastNUL:
			return i, stringNoNUL
		}
	}
	return -1, stringOK
}

// checkError runs check and turns its failure into a FormatError.
func (s *StringBuffer) checkError(r Reading) error {
	const rec = "PERF_STRING_COUNTER_HEADER"
	i, why := s.check(r)
	if why == stringOK {
		return nil
	}
	field := StringBufferHeaderSize + StringCounterHeaderSize*i + 4
	d := u(le32(s.block, field))
	switch why {
	case stringOutside:
		d += " points outside dwSize " + u(s.Size)
	case stringInHeaders:
		d += " points into the headers"
	case stringOdd:
		d += " is odd"
	default:
		d += ": string has no NUL within dwSize"
	}
	return fail(rec, i, field, "dwOffset", d+" ("+r.String()+" reading)", engine.ErrMalformed)
}

// plausible reports whether, under reading r (already checked), the
// strings are laid out as an encoder lays them out: the first one right
// after the array, each next one at or after the end of the previous one.
func (s *StringBuffer) plausible(r Reading) bool {
	next := s.stringsStart()
	first := true
	for i := range int(s.NumCounters) {
		p := s.position(i, r)
		if p == -1 {
			continue
		}
		if first && p != next || p < next {
			return false
		}
		first = false
		t, _ := cstring(s.block[p:])
		next = p + len(t) + 2
	}
	return true
}

// Reading returns the reading of the offsets that ParseStrings chose.
func (s *StringBuffer) Reading() Reading { return s.reading }

// Len returns the number of PERF_STRING_COUNTER_HEADER records.
func (s *StringBuffer) Len() int { return int(s.NumCounters) }

// At returns the counter id of the i-th record, 0 ≤ i < Len, and its
// string; ok is false for a record without a string (dwOffset NoString)
// and for an i out of range.
func (s *StringBuffer) At(i int) (counterID uint32, text wintype.Text, ok bool) {
	if i < 0 || i >= int(s.NumCounters) {
		return 0, nil, false
	}
	counterID = le32(s.block, StringBufferHeaderSize+StringCounterHeaderSize*i)
	r := s.reading
	if r == ReadingAmbiguous {
		r = ReadingSDK
	}
	p := s.position(i, r)
	if p < 0 {
		return counterID, nil, false
	}
	text, ok = cstring(s.block[p:])
	return counterID, text, ok
}

// AppendName appends the name of a counter as a counter path writes it:
// its string (UTF-8), or "#<counterID>" when the buffer has no string, or
// an empty one, for counterID, or s is nil (no buffer).
func (s *StringBuffer) AppendName(dst []byte, counterID uint32) []byte {
	if s != nil {
		if t, ok := s.Lookup(counterID); ok && len(t) > 0 {
			return t.AppendUTF8(dst)
		}
	}
	return text.AppendIndexName(dst, counterID)
}

// Lookup returns the string of the first record for counterID.
func (s *StringBuffer) Lookup(counterID uint32) (wintype.Text, bool) {
	for i := range int(s.NumCounters) {
		if le32(s.block, StringBufferHeaderSize+StringCounterHeaderSize*i) == counterID {
			_, t, ok := s.At(i)
			return t, ok
		}
	}
	return nil, false
}
