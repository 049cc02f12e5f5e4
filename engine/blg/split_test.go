package blg

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/perfcalc/perfcalc/engine"

	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

// samplesOf reads r to its end and returns deep copies of its samples
// (Index left as read) and its error.
func samplesOf(r *Reader) ([]Sample, error) {
	var out []Sample
	for r.Next() {
		s := r.Sample()
		c := Sample{Index: s.Index, Offset: s.Offset, TimeStamp: s.TimeStamp, Record: bytes.Clone(s.Record)}
		for _, v := range s.Values {
			v.Instance = bytes.Clone(v.Instance)
			c.Values = append(c.Values, v)
		}
		for _, b := range s.Blocks {
			c.Blocks = append(c.Blocks, Block{Counter: b.Counter, Data: bytes.Clone(b.Data)})
		}
		out = append(out, c)
	}
	return out, r.Err()
}

func sameSample(a, b *Sample) bool {
	if a.Offset != b.Offset || a.TimeStamp != b.TimeStamp || !bytes.Equal(a.Record, b.Record) || len(a.Values) != len(b.Values) || len(a.Blocks) != len(b.Blocks) {
		return false
	}
	for i := range a.Values {
		if a.Values[i].Counter != b.Values[i].Counter || a.Values[i].Raw != b.Values[i].Raw || !bytes.Equal(a.Values[i].Instance, b.Values[i].Instance) {
			return false
		}
	}
	for i := range a.Blocks {
		if a.Blocks[i].Counter != b.Blocks[i].Counter || !bytes.Equal(a.Blocks[i].Data, b.Blocks[i].Data) {
			return false
		}
	}
	return true
}

// checkSplit reads log whole and in n parts, and checks that the parts in
// order give the same samples and the same first damage. It returns the
// number of parts.
func checkSplit(t *testing.T, name string, log []byte, n int) int {
	t.Helper()
	whole, err := NewReader(bytes.NewReader(log), int64(len(log)))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	want, wantErr := samplesOf(whole)
	r, err := NewReader(bytes.NewReader(log), int64(len(log)))
	if err != nil {
		t.Fatal(err)
	}
	parts := r.Split(n)
	var have []Sample
	var haveErr error
	for k, p := range parts {
		ss, err := samplesOf(p)
		for i := range ss {
			if ss[i].Index != i {
				t.Fatalf("%s part %d: sample %d has Index %d", name, k, i, ss[i].Index)
			}
		}
		if fe := (*engine.FormatError)(nil); errors.As(err, &fe) && fe.Record == "sample record" {
			fe.Index += len(have) // a part numbers its samples from its start
		}
		have = append(have, ss...)
		if err != nil {
			haveErr = err
			break // a damage ends the reading: later parts are disregarded
		}
	}
	if (haveErr == nil) != (wantErr == nil) || haveErr != nil && haveErr.Error() != wantErr.Error() {
		t.Errorf("%s, %d parts: error %v, reading whole: %v", name, len(parts), haveErr, wantErr)
	}
	if len(have) != len(want) {
		t.Fatalf("%s, %d parts: %d samples, reading whole: %d", name, len(parts), len(have), len(want))
	}
	for i := range want {
		if !sameSample(&have[i], &want[i]) {
			t.Fatalf("%s, %d parts: sample %d differs", name, len(parts), i)
		}
	}
	return len(parts)
}

// TestSplit: reading the parts of Split in order gives what reading the
// log whole gives, samples and damage, whatever the number of parts, for
// records split over events and buffers, real logs repeated, logs cut and
// damaged anywhere.
func TestSplit(t *testing.T) {
	defer func(old int64) { minSplitBytes = old }(minSplitBytes)
	minSplitBytes = 1
	logs := map[string][]byte{
		"whole records, 1 KiB buffers": testLog(600, 1024, 1<<20),
		"records split in 3 parts":     testLog(600, 1024, 90),
		"records split in 9 parts":     testLog(300, 2048, 30),
	}
	if tx, err := txLog(t, 6); err == nil {
		logs["Tx x6"] = tx
	}
	for name, log := range logs {
		for _, n := range []int{2, 3, 5, 16} {
			if got := checkSplit(t, name, log, n); got != n {
				t.Errorf("%s: %d parts, want %d", name, got, n)
			}
		}
		// Cut at many places, and a byte damaged at many places: every
		// damage is met at the same sample, whichever part meets it.
		for cut := len(log) / 7; cut < len(log); cut += len(log)/7 + 13 {
			checkSplit(t, name+" cut", log[:cut], 3)
			bad := bytes.Clone(log)
			binary.LittleEndian.PutUint32(bad[cut:], 0xFFFF_FFFF)
			checkSplit(t, name+" damaged", bad, 3)
		}
	}
}

func txLog(t *testing.T, copies int64) ([]byte, error) {
	l, err := gencorpus.NewRepeatedLog(readCorpus(t, "Tx_BasicPerfCounters.blg"), copies)
	if err != nil {
		return nil, err
	}
	return l.Bytes(), nil
}

// TestSplitDamage: bytes damaged at random, anywhere: the parts meet the
// damage where reading whole does, with the same error (its sample index
// counted from the part's start).
func TestSplitDamage(t *testing.T) {
	defer func(old int64) { minSplitBytes = old }(minSplitBytes)
	minSplitBytes = 1
	seeds := [][]byte{testLog(200, 1024, 90), testLog(120, 1024, 1<<20), testLog(60, 2048, 30)}
	rng := rand.New(rand.NewPCG(14, 1))
	for range 600 {
		log := bytes.Clone(seeds[rng.IntN(len(seeds))])
		for range 1 + rng.IntN(4) {
			log[rng.IntN(len(log))] = byte(rng.IntN(256))
		}
		if _, err := NewReader(bytes.NewReader(log), int64(len(log))); err == nil {
			checkSplit(t, "damaged at random", log, 2+rng.IntN(4))
		}
	}
}

// TestSplitRewind: the first part rewinds to the whole log; a later part,
// read or not, cannot rewind.
func TestSplitRewind(t *testing.T) {
	defer func(old int64) { minSplitBytes = old }(minSplitBytes)
	minSplitBytes = 1
	log := testLog(300, 1024, 90)
	whole, _ := NewReader(bytes.NewReader(log), int64(len(log)))
	want, _ := samplesOf(whole)
	r, _ := NewReader(bytes.NewReader(log), int64(len(log)))
	parts := r.Split(3)
	if len(parts) != 3 {
		t.Fatalf("%d parts", len(parts))
	}
	for _, p := range parts {
		samplesOf(p)
	}
	for k, p := range parts[1:] {
		if err := p.Rewind(); err != ErrNotRewindable {
			t.Errorf("part %d: Rewind: have %v, want ErrNotRewindable", k+1, err)
		}
	}
	if err := r.Rewind(); err != nil {
		t.Fatal(err)
	}
	if have, _ := samplesOf(r); len(have) != len(want) {
		t.Errorf("the first part rewound reads %d samples, want the log's %d", len(have), len(want))
	}
}

// TestSplitAlone: Split returns the reader alone where it cannot divide.
func TestSplitAlone(t *testing.T) {
	log := testLog(600, 1024, 1<<20)
	for _, tc := range []struct {
		name string
		r    func() *Reader
		n    int
	}{
		{"one part", func() *Reader { r, _ := NewReader(bytes.NewReader(log), int64(len(log))); return r }, 1},
		{"a small log", func() *Reader { r, _ := NewReader(bytes.NewReader(log), int64(len(log))); return r }, 2},
		{"a stream", func() *Reader { r, _ := NewStreamReader(bytes.NewReader(log)); return r }, 2},
		{"started", func() *Reader { r, _ := NewReader(bytes.NewReader(log), int64(len(log))); r.Next(); return r }, 2},
	} {
		if parts := tc.r().Split(tc.n); len(parts) != 1 {
			t.Errorf("%s: %d parts, want 1", tc.name, len(parts))
		}
	}
}

// FuzzSplit: for any bytes, reading the parts of Split in order gives what
// reading the log whole gives (samples and first damage), for 2 to 5
// parts over buffers of any size.
func FuzzSplit(f *testing.F) {
	f.Add(testLog(200, 1024, 90), uint8(2))
	f.Add(testLog(120, 1024, 1<<20), uint8(3))
	f.Add(testLog(60, 2048, 30), uint8(5))
	f.Fuzz(func(t *testing.T, log []byte, n uint8) {
		defer func(old int64) { minSplitBytes = old }(minSplitBytes)
		minSplitBytes = 1
		if _, err := NewReader(bytes.NewReader(log), int64(len(log))); err != nil {
			return
		}
		checkSplit(t, "fuzzed", log, 2+int(n%4))
	})
}
