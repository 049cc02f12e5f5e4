package blg

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
)

// TestInstanceNameCap: instance names of PDH_MAX_INSTANCE_NAME characters
// are read; one more is refused, in a counter-list entry (the log does not
// open) and in a multi-instance item (the samples before it are kept).
func TestInstanceNameCap(t *testing.T) {
	long := strings.Repeat("i", counterpath.MaxInstanceName+1)
	entry := testEntries[0]
	entry.instance = long
	_, err := ParseCounterList(encodeCounterList(entry))
	checkFormatError(t, err, "counter list entry", "InstanceOffset", engine.ErrUnsupported)
	entry.instance = long[1:]
	if list, err := ParseCounterList(encodeCounterList(entry)); err != nil || list[0].Instance != long[1:] {
		t.Fatalf("an instance of %d characters: %v", len(long)-1, err)
	}

	l := newLog(8192, pacific)
	l.record(EventCounterList, 1000, encodeCounterList(testEntries...), 4000)
	for i, name := range []string{long[1:], long} {
		ts := int64(130057734178440000 + i*10_000_000)
		l.record(EventSample, ts, encodeSample(encodeRaw(0, ts, 1, 2, 1), encodeMulti(0, ts, itemSpec{name, 1, 2, 0})), 4000)
	}
	r := open(t, l.bytes())
	n := 0
	for r.Next() {
		if v := r.Sample().Values[1]; string(v.Instance) != long[1:] {
			t.Errorf("sample %d: instance of %d characters", n, len(v.Instance))
		}
		n++
	}
	checkFormatError(t, r.Err(), "multi-instance record", "NameOffset", engine.ErrUnsupported)
	if n != 1 {
		t.Errorf("have %d samples before the long name, want 1", n)
	}
}

// TestMultiNamesOverlap: multi-instance items that share a name would let
// a small record decode into a large one (every item a copy of the longest
// name); the names must fit, one per item, in the bytes after the items.
func TestMultiNamesOverlap(t *testing.T) {
	sub := encodeMulti(0, 1, itemSpec{"_Total", 1, 2, 0}, itemSpec{"0", 3, 4, 0})
	first := binary.LittleEndian.Uint32(sub[recordHeaderSize+multiHeader:])
	binary.LittleEndian.PutUint32(sub[recordHeaderSize+multiHeader+multiItemSize:], first)
	l := newLog(1024, pacific)
	l.record(EventCounterList, 1000, encodeCounterList(testEntries...), 1<<20)
	l.record(EventSample, 1, encodeSample(encodeRaw(0, 1, 1, 2, 1), sub), 1<<20)
	r := open(t, l.bytes())
	if r.Next() {
		t.Fatal("a sample whose items share a name was read")
	}
	checkFormatError(t, r.Err(), "multi-instance record", "NameOffset", engine.ErrMalformed)
}

// TestErrf: the details errf formats, byte for byte.
func TestErrf(t *testing.T) {
	err := errf("record", 3, 0x40, "Field", engine.ErrMalformed, "a %d b %u c %x %% d %", -5, -1, 255)
	if want := "blg: record 3 at 0x40: Field a -5 b 18446744073709551615 c 0xff % d %"; err.Error() != want {
		t.Errorf("have %q, want %q", err.Error(), want)
	}
}
