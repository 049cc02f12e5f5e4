package blg

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"testing"
)

// corpusRecords returns, for each real log that opens, the sample records
// of its first samples (up to max) and its counter list's length.
func corpusRecords(t *testing.T, max int) (logs map[string][][]byte, counters map[string]int) {
	t.Helper()
	logs, counters = map[string][][]byte{}, map[string]int{}
	for _, name := range []string{"Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg", "PAL_SamplePerfmonLog.blg", "PowerShell_CorruptBlg.blg"} {
		data := readCorpus(t, name)
		r, err := NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			continue
		}
		for len(logs[name]) < max && r.Next() {
			logs[name] = append(logs[name], bytes.Clone(r.Sample().Record))
		}
		counters[name] = len(r.Counters())
	}
	return logs, counters
}

// TestRepeatCorpus: every sample of every real log, as a Reader yields it
// (decoded by its raw data alone where it repeats the layout of the one
// before), equals a full decode of its record into a fresh Sample; the
// raw-record logs repeat, a sample with whole objects never does, and the
// first sample after Rewind does not.
func TestRepeatCorpus(t *testing.T) {
	if !repeats {
		t.Skip("this build decodes every sample in full")
	}
	opened := 0
	for _, name := range []string{"Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg", "PAL_SamplePerfmonLog.blg", "PowerShell_CorruptBlg.blg"} {
		data := readCorpus(t, name)
		r, err := NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			continue // PowerShell_CorruptBlg: its damage is TestCorpus's
		}
		opened++
		for pass := range 2 {
			n, repeated := 0, 0
			for r.Next() {
				s := r.Sample()
				full := Sample{Offset: s.Offset, TimeStamp: s.TimeStamp}
				if err := full.Decode(s.Record, len(r.Counters())); err != nil {
					t.Fatalf("%s sample %d: full decode: %v", name, s.Index, err)
				}
				if !sameSample(s, &full) {
					t.Fatalf("%s sample %d (Repeat %v): differs from its full decode", name, s.Index, s.Repeat)
				}
				if s.Repeat && (n == 0 || len(s.Blocks) > 0) {
					t.Fatalf("%s sample %d: Repeat with %d blocks, %d samples before it", name, s.Index, len(s.Blocks), n)
				}
				if s.Repeat {
					repeated++
				}
				n++
			}
			t.Logf("%s pass %d: %d of %d samples repeat the one before", name, pass, repeated, n)
			if name == "Tx_BasicPerfCounters.blg" && repeated < n-1 {
				t.Errorf("%s: %d of %d samples repeat, want all but the first", name, repeated, n)
			}
			if err := r.Rewind(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if opened < 3 {
		t.Fatalf("%d real logs opened, want at least 3", opened)
	}
}

// layoutBytes marks the bytes of a well-formed sample record that make its
// layout (what repeat compares): every record and sub-record header, and in
// a multi-instance body its Size and ItemCount, each item's NameOffset and
// the names. The rest is raw data (values, statuses, time stamps, padding).
func layoutBytes(rec []byte) []bool {
	le := binary.LittleEndian
	mark := make([]bool, len(rec))
	set := func(from, to int) {
		for i := from; i < to; i++ {
			mark[i] = true
		}
	}
	size := int(le.Uint32(rec[4:]))
	set(0, recordHeaderSize)
	for p := recordHeaderSize; p < size; {
		subSize := int(le.Uint32(rec[p+4:]))
		set(p, p+recordHeaderSize)
		if rec[p+3] == kindMulti {
			body := p + recordHeaderSize
			bodySize, count := int(le.Uint32(rec[body:])), int(le.Uint32(rec[body+4:]))
			set(body, body+8)
			for i := range count {
				q := body + multiHeader + i*multiItemSize
				set(q, q+4)
			}
			set(body+multiHeader+count*multiItemSize, body+bodySize)
		}
		p += subSize
	}
	return mark
}

// TestRepeatMutations: a record that follows a real one with one byte
// changed (anywhere: a header, a size, a count, a name offset, a name, a
// value) decodes as a full decode of it alone does (the same error or the
// same sample), and repeats the one before exactly when the byte changed
// is raw data. A shorter record and another counter list's length never
// repeat.
func TestRepeatMutations(t *testing.T) {
	if !repeats {
		t.Skip("this build decodes every sample in full")
	}
	logs, counters := corpusRecords(t, 2)
	multis := 0
	for name, recs := range logs {
		if len(recs) < 2 {
			continue
		}
		prev, next := recs[0], recs[1]
		var s Sample
		if err := s.Decode(prev, counters[name]); err != nil {
			t.Fatal(err)
		}
		if len(s.Blocks) > 0 {
			continue // whole objects: TestRepeatCorpus shows they never repeat
		}
		for i := range s.Values {
			if s.Values[i].Instance != nil {
				multis++
			}
		}
		mark := layoutBytes(prev)
		if !bytes.Equal(layoutMask(mark, prev), layoutMask(mark, next)) {
			t.Fatalf("%s: the first two samples differ in layout", name)
		}
		check := func(what string, rec []byte, numCounters int, wantRepeat bool) {
			t.Helper()
			var s Sample
			if err := s.Decode(prev, counters[name]); err != nil {
				t.Fatal(err)
			}
			err := s.Decode(rec, numCounters)
			var full Sample
			fullErr := full.Decode(rec, numCounters)
			switch {
			case (err == nil) != (fullErr == nil) || err != nil && err.Error() != fullErr.Error():
				t.Fatalf("%s %s: have error %v, full decode %v", name, what, err, fullErr)
			case err == nil && !sameSample(&s, &full):
				t.Fatalf("%s %s: differs from the full decode (Repeat %v)", name, what, s.Repeat)
			case err == nil && s.Repeat != wantRepeat:
				t.Fatalf("%s %s: have Repeat %v, want %v", name, what, s.Repeat, wantRepeat)
			case err != nil && s.layoutN != 0:
				t.Fatalf("%s %s: a damaged record left a layout for the next", name, what)
			}
		}
		check("unchanged", next, counters[name], true)
		for i := range next {
			for _, mask := range []byte{0x01, 0x80, 0xff} {
				rec := bytes.Clone(next)
				rec[i] ^= mask
				check("byte "+hex(i)+" ^ "+hex(int(mask)), rec, counters[name], !mark[i])
			}
		}
		for _, cut := range []int{1, 8, 24, len(next) / 2, len(next) - 8} {
			check("cut by "+hex(cut), next[:len(next)-cut], counters[name], false)
		}
		check("one counter more", next, counters[name]+1, false)
	}
	if multis == 0 {
		t.Fatal("no multi-instance values in the records tested")
	}
}

// layoutMask returns rec's layout bytes (mark), the rest zeroed.
func layoutMask(mark []bool, rec []byte) []byte {
	out := make([]byte, len(rec))
	for i, m := range mark {
		if m && i < len(rec) {
			out[i] = rec[i]
		}
	}
	return out
}

func hex(i int) string { return "0x" + strconv.FormatInt(int64(i), 16) }

// TestEmptyInstanceName: an item of a multi-instance counter whose name is
// empty has an empty, non-nil Instance (nil is a single counter's), in a
// fresh Sample as in one that decoded names before (FuzzSampleRepeat found
// a fresh Sample giving nil when every name of the record was empty).
func TestEmptyInstanceName(t *testing.T) {
	rec := encodeSample(encodeRaw(0, 1, 1, 2, 1), encodeMulti(0, 1, itemSpec{"", 3, 4, 0}, itemSpec{"", 5, 6, 0}))
	named := encodeSample(encodeRaw(0, 1, 1, 2, 1), encodeMulti(0, 1, itemSpec{"_Total", 3, 4, 0}))
	var fresh, used Sample
	if err := used.Decode(named, 2); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Sample{&fresh, &used} {
		if err := s.Decode(rec, 2); err != nil {
			t.Fatal(err)
		}
		if len(s.Values) != 3 || s.Values[0].Instance != nil {
			t.Fatalf("%d values, single counter's Instance %q (nil %v)", len(s.Values), s.Values[0].Instance, s.Values[0].Instance == nil)
		}
		for _, v := range s.Values[1:] {
			if v.Instance == nil || len(v.Instance) != 0 {
				t.Errorf("an empty instance name decoded as %q (nil %v), want empty and not nil", v.Instance, v.Instance == nil)
			}
		}
	}
}
