package fuzz

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/hostile"
)

// FuzzBLG: the .blg container (both entry points) and the record parsers
// never panic and end; every error is a *engine.FormatError whose text
// names an offset; a reader never yields more samples than the input has
// bytes.
func FuzzBLG(f *testing.F) {
	for _, s := range blgHandMadeSeeds() {
		f.Add(s)
	}
	for _, s := range blgCorpusSeeds() {
		f.Add(s)
	}
	for _, s := range blgHostileSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(what string, err error) {
			t.Helper()
			if err == nil {
				return
			}
			var fe *engine.FormatError
			if !errors.As(err, &fe) || fe.Format != "blg" || !strings.Contains(err.Error(), " at 0x") {
				t.Fatalf("%s: have error %v (%T), want a blg *engine.FormatError naming an offset", what, err, err)
			}
		}
		for _, stream := range []bool{false, true} {
			var r *blg.Reader
			var err error
			if stream {
				r, err = blg.NewStreamReader(bytes.NewReader(data))
			} else {
				r, err = blg.NewReader(bytes.NewReader(data), int64(len(data)))
			}
			check("open", err)
			if err != nil {
				continue
			}
			cs := r.Counters()
			_ = r.Header().TimeZone.ToLocal(r.Header().StartTime)
			n := 0
			for r.Next() {
				s := r.Sample()
				if !stream {
					// The reader's Sample decodes a sample that repeats the
					// layout of the one before by its raw data alone: it
					// holds what a full decode into a fresh Sample gives.
					var full blg.Sample
					if err := full.Decode(s.Record, len(cs)); err != nil || !sameDecode(s, &full) {
						t.Fatalf("sample %d (Repeat %v): differs from its full decode (%v)", s.Index, s.Repeat, err)
					}
				}
				for _, v := range s.Values {
					if v.Counter < 0 || v.Counter >= len(cs) {
						t.Fatalf("value of counter %d, have %d counters", v.Counter, len(cs))
					}
					_ = cs[v.Counter].AppendPath(nil, v.Instance)
				}
				for _, b := range s.Blocks {
					if b.Counter < 0 || b.Counter >= len(cs) || len(b.Data) < 88 {
						t.Fatalf("block of counter %d, %d bytes", b.Counter, len(b.Data))
					}
				}
				n++
				if n > len(data) {
					t.Fatalf("%d samples from %d bytes", n, len(data))
				}
			}
			check("Next", r.Err())
			if stream {
				continue
			}
			// Rewind reads the same samples and damage again.
			firstErr := r.Err()
			if err := r.Rewind(); err != nil && (firstErr == nil || err.Error() != firstErr.Error()) {
				t.Fatalf("Rewind: %v after %v", err, firstErr)
			}
			again := 0
			for r.Next() {
				again++
			}
			if again != n || (r.Err() == nil) != (firstErr == nil) || firstErr != nil && r.Err().Error() != firstErr.Error() {
				t.Fatalf("after Rewind: %d samples, %v; before: %d, %v", again, r.Err(), n, firstErr)
			}
		}
		_, err := blg.ParseBufferHeader(data, 0)
		check("ParseBufferHeader", err)
		_, err = blg.ParseCounterList(data)
		check("ParseCounterList", err)
		var s blg.Sample
		for _, n := range []int{0, 1, 2, 26, len(data) % 64} {
			check("Sample.Decode", s.Decode(data, n))
		}
		_ = blg.ResolveName(string(data))
	})
}

// FuzzSampleRepeat: a Sample that decodes a record and then another (the
// second by its raw data alone when it repeats the first's layout) holds
// what a full decode of the second into a fresh Sample gives: the same
// error, or the same values and blocks; it decodes the second again (a
// repeat of itself) the same way; and it says Repeat only after a record
// that decoded, never for a sample with whole objects.
func FuzzSampleRepeat(f *testing.F) {
	for _, p := range blgRecordPairs() {
		f.Add(p.prev, p.next, p.counters)
	}
	f.Fuzz(func(t *testing.T, prev, next []byte, counters uint8) {
		n := int(counters)
		var s blg.Sample
		prevErr := s.Decode(prev, n)
		for again := range 2 {
			err := s.Decode(next, n)
			var full blg.Sample
			fullErr := full.Decode(next, n)
			switch {
			case (err == nil) != (fullErr == nil) || err != nil && err.Error() != fullErr.Error():
				t.Fatalf("decode %d: have error %v, a full decode %v", again, err, fullErr)
			case err == nil && !sameDecode(&s, &full):
				t.Fatalf("decode %d (Repeat %v): differs from a full decode", again, s.Repeat)
			case s.Repeat && (err != nil || len(s.Blocks) > 0 || again == 0 && prevErr != nil):
				t.Fatalf("decode %d: Repeat with error %v, %d blocks, after %v", again, err, len(s.Blocks), prevErr)
			}
			prevErr = err
		}
	})
}

// sameDecode reports whether two decoded samples hold the same values
// (counters, instance names, raw data) and blocks.
func sameDecode(a, b *blg.Sample) bool {
	if len(a.Values) != len(b.Values) || len(a.Blocks) != len(b.Blocks) {
		return false
	}
	for i := range a.Values {
		x, y := &a.Values[i], &b.Values[i]
		if x.Counter != y.Counter || x.Raw != y.Raw || !bytes.Equal(x.Instance, y.Instance) || (x.Instance == nil) != (y.Instance == nil) {
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

type recordPair struct {
	prev, next []byte
	counters   uint8
}

// blgRecordPairs returns pairs of consecutive sample records: of the
// hand-made log, and, where ../shared/corpus is present, of the real logs,
// with variants of the second whose layout (a name, a name offset, an item
// count) or only a value differs.
func blgRecordPairs() []recordPair {
	var pairs []recordPair
	logs := blgHandMadeSeeds()[:1]
	for _, name := range []string{"Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg", "PAL_SamplePerfmonLog.blg"} {
		if root := corpus.Root(); root != "" {
			if b, err := os.ReadFile(filepath.Join(filepath.Dir(root), "shared", "corpus", "blg", name)); err == nil {
				logs = append(logs, b)
			}
		}
	}
	for _, log := range logs {
		r, err := blg.NewReader(bytes.NewReader(log), int64(len(log)))
		if err != nil {
			continue
		}
		var recs [][]byte
		for len(recs) < 3 && r.Next() {
			recs = append(recs, bytes.Clone(r.Sample().Record))
		}
		n := uint8(len(r.Counters()))
		for i := 1; i < len(recs); i++ {
			pairs = append(pairs, recordPair{recs[i-1], recs[i], n})
		}
		if len(recs) < 2 {
			continue
		}
		prev, next := recs[0], recs[1]
		for _, at := range []int{len(next) - 3, len(next) / 2, 12, 4} {
			v := bytes.Clone(next)
			v[at] ^= 0x20
			pairs = append(pairs, recordPair{prev, v, n})
		}
		pairs = append(pairs, recordPair{prev, next[:len(next)-8], n}, recordPair{prev, next, n + 1})
	}
	return pairs
}

// blgCorpusSeeds returns small slices of the real logs: their first two
// buffers and single records. It returns nothing where ../shared/corpus is
// absent (the hand-made seeds still run).
func blgCorpusSeeds() [][]byte {
	root := corpus.Root()
	if root == "" {
		return nil
	}
	dir := filepath.Join(filepath.Dir(root), "shared", "corpus", "blg")
	var seeds [][]byte
	read := func(name string) []byte {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		return b
	}
	if b := read("Tx_BasicPerfCounters.blg"); len(b) >= 0x20000 {
		seeds = append(seeds,
			b[:0x20000],              // log header, counter list, 124 samples
			b[0x10090:0x10448],       // the counter list record
			b[0x10490:0x10650],       // a sample record: 5 raw + 1 multi-instance
			b[0x10490+0x100:0x10650], // its multi-instance sub-record onwards
		)
	}
	if b := read("PAL_SamplePerfmonLog.blg"); len(b) >= 0x40000 {
		seeds = append(seeds,
			b[:0x40000],        // header, name table, counter list, split samples
			b[0x2a098:0x2a418], // the whole-object counter list
			b[0x31eb0:0x33df0], // the first part of a split sample record
		)
	}
	if b := read("PowerShell_BadCounterSamples.blg"); len(b) >= 0x20000 {
		seeds = append(seeds, b[:0x20000])
	}
	if b := read("PowerShell_CorruptBlg.blg"); len(b) > 0 {
		seeds = append(seeds, b[:min(len(b), 512)])
	}
	return seeds
}

// blgHostileSeeds returns the inputs of issue 12, small: a counter list of
// many entries and no sample, a log whose header counts more buffers than
// it has (cut at a buffer boundary, which used to end cleanly) and, where
// ../shared/corpus is present, the PAL log cut after its first buffer.
func blgHostileSeeds() [][]byte {
	l := blgbuild.New(1024, 130_057_734_178_440_000)
	l.Record(blgbuild.EventCounterList, 1, blgbuild.AppendCounterList(nil,
		blgbuild.Counter{Type: uint32(engine.CounterRawcount), Machine: `\\H`, Object: "Memory", Counter: "Pages/sec"}), 900)
	for i := range 30 {
		ts := int64(130_057_734_178_440_000 + i*10_000_000)
		l.Record(blgbuild.EventSample, ts, blgbuild.RawSample(ts, uint64(i)), 900)
	}
	log := l.Bytes()
	seeds := [][]byte{hostile.CounterListLog(200), log, log[:len(log)/2/1024*1024]}
	if pal, err := os.ReadFile(filepath.Join(filepath.Dir(corpus.Root()), "shared", "corpus", "blg", "PAL_SamplePerfmonLog.blg")); err == nil && len(pal) > 0x10000 {
		seeds = append(seeds, pal[:0x10000])
	}
	return seeds
}

// blgHandMadeSeeds returns small logs in 1 KiB buffers, built by hand
// after the layouts engine/blg decodes: one with a single counter, one with
// a wildcard counter and a split sample record, and broken variants.
func blgHandMadeSeeds() [][]byte {
	le := binary.LittleEndian
	u16 := func(s string) []byte {
		var b []byte
		for _, r := range s {
			b = le.AppendUint16(b, uint16(r))
		}
		return append(b, 0, 0)
	}
	const bufSize = 1024
	var bufs [][]byte
	cur := make([]byte, 0x48, bufSize)
	flush := func() {
		b := bytes.Repeat([]byte{0xFF}, bufSize)
		copy(b, cur)
		le.PutUint32(b[0:], bufSize)
		le.PutUint32(b[0x30:], uint32(len(cur)))
		bufs = append(bufs, b)
		cur = make([]byte, 0x48, bufSize)
	}
	put := func(ev []byte) {
		n := (len(ev) + 7) &^ 7
		if len(cur)+n > bufSize {
			flush()
		}
		cur = append(cur, ev...)
		for len(cur)%8 != 0 {
			cur = append(cur, 0)
		}
	}
	guid := []byte{0xb3, 0x3b, 0x3f, 0x93, 0x3e, 0x94, 0x0d, 0x49, 0x9c, 0xed, 0x3c, 0xbb, 0x14, 0xc1, 0x44, 0x79}
	event := func(typ byte, part, count uint32, data []byte) []byte {
		ev := make([]byte, 72, 72+len(data))
		le.PutUint16(ev[0:], uint16(72+len(data)))
		ev[2], ev[3], ev[4] = 0x0A, 0xC0, typ
		le.PutUint64(ev[16:], 130057734178440000)
		copy(ev[24:], guid)
		copy(ev[48:], "log guid 0123456")
		le.PutUint32(ev[64:], part)
		le.PutUint32(ev[68:], count)
		return append(ev, data...)
	}
	// Log header: 32-bit system header + TRACE_LOGFILE_HEADER (0x110 bytes).
	hdr := make([]byte, 32+0x110)
	copy(hdr, []byte{2, 0, 1, 0xC0})
	le.PutUint16(hdr[4:], uint16(len(hdr)))
	le.PutUint32(hdr[32:], bufSize)
	le.PutUint32(hdr[32+44:], 4)
	le.PutUint32(hdr[32+64:], 480) // Bias
	copy(hdr[32+68:], u16("@tzres.dll,-212"))
	le.PutUint16(hdr[32+64+68+2:], 11) // StandardDate: November, first Sunday, 02:00
	le.PutUint16(hdr[32+64+68+6:], 1)
	le.PutUint16(hdr[32+64+68+8:], 2)
	le.PutUint16(hdr[32+64+152+2:], 3) // DaylightDate: March, second Sunday, 02:00
	le.PutUint16(hdr[32+64+152+6:], 2)
	le.PutUint16(hdr[32+64+152+8:], 2)
	le.PutUint32(hdr[32+64+168:], 0xFFFFFFC4) // DaylightBias −60
	le.PutUint64(hdr[32+256:], 0x01ce0f150422df79)
	put(hdr)
	entry := func(flags, typ uint32, instance string) []byte {
		strs := append(append(u16(`\\H`), u16("Processor")...), u16("% Processor Time")...)
		e := make([]byte, 52)
		le.PutUint32(e[4:], flags)
		le.PutUint32(e[12:], typ)
		le.PutUint64(e[16:], 10_000_000)
		le.PutUint32(e[28:], 0)
		le.PutUint32(e[32:], 8)
		le.PutUint32(e[36:], uint32(len(strs)))
		le.PutUint32(e[40:], 0xFFFFFFFF)
		le.PutUint32(e[48:], 8+20)
		strs = append(strs, u16(instance)...)
		for len(strs)%8 != 4 {
			strs = append(strs, 0)
		}
		le.PutUint32(e[0:], uint32(52+len(strs)))
		return append(e, strs...)
	}
	list := append([]byte{0xFF, 6, 0, 0, 8, 0, 2, 0}, entry(0, 0x21510500, "_Total")...)
	list = append(list, entry(1, 0x21510500, "*")...)
	bl := func(kind byte, body []byte) []byte {
		b := []byte{'B', 'L', 3, kind, 0, 0, 0, 0}
		le.PutUint32(b[4:], uint32(8+len(body)))
		return append(b, body...)
	}
	raw := make([]byte, 40)
	le.PutUint64(raw[4:], 130057734178440000)
	le.PutUint64(raw[16:], 1129591718750)
	le.PutUint64(raw[24:], 130058022178447225)
	le.PutUint32(raw[32:], 1)
	multi := make([]byte, 24+2*24)
	le.PutUint32(multi[4:], 2)
	le.PutUint64(multi[16:], 130057734178440000)
	for i, name := range []string{"0", "_Total"} {
		le.PutUint32(multi[24+24*i:], uint32(len(multi)))
		le.PutUint64(multi[24+24*i+8:], uint64(1000*i))
		multi = append(multi, u16(name)...)
	}
	le.PutUint32(multi[0:], uint32(len(multi)))
	sample := bl(0, append(bl(1, raw), bl(2, multi)...))
	put(event(0x20, 1, 1, list))
	for i := 0; i < 6; i++ {
		put(event(0x22, 1, 2, sample[:40]))
		put(event(0x22, 2, 2, sample[40:]))
	}
	flush()
	log := bytes.Join(bufs, nil)

	seeds := [][]byte{log, list, sample}
	cut := bytes.Clone(log[:len(log)-100])
	seeds = append(seeds, cut)
	broken := bytes.Clone(log)
	broken[bufSize+0x48+64] = 2 // the counter list claims to be part 2
	seeds = append(seeds, broken)
	return seeds
}

// TestBLGSeeds: the hand-made seeds are what they claim to be: a log that
// decodes (6 split samples of a single and a wildcard counter), its records,
// and broken variants that are refused.
func TestBLGSeeds(t *testing.T) {
	seeds := blgHandMadeSeeds()
	log := seeds[0]
	r, err := blg.NewReader(bytes.NewReader(log), int64(len(log)))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for r.Next() {
		s := r.Sample()
		if len(s.Values) != 3 || string(s.Values[2].Instance) != "_Total" || s.Values[0].Raw.FirstValue != 1129591718750 {
			t.Fatalf("sample %d: have %+v", n, s.Values)
		}
		n++
	}
	if n != 6 || r.Err() != nil {
		t.Fatalf("have %d samples, error %v; want 6, none", n, r.Err())
	}
	if cs := r.Counters(); len(cs) != 2 || cs[0].Path != `\\H\Processor(_Total)\% Processor Time` || cs[1].Path != `\\H\Processor(*)\% Processor Time` {
		t.Fatalf("have counters %+v", cs)
	}
	if tz := r.Header().TimeZone; tz.StandardDisplayName() != "Pacific Standard Time" || tz.Bias != 480 {
		t.Fatalf("have time zone %+v", tz)
	}
	if cs, err := blg.ParseCounterList(seeds[1]); err != nil || len(cs) != 2 {
		t.Fatalf("counter list seed: have %d counters, %v", len(cs), err)
	}
	var s blg.Sample
	if err := s.Decode(seeds[2], 2); err != nil || len(s.Values) != 3 {
		t.Fatalf("sample seed: have %d values, %v", len(s.Values), err)
	}
	for i, b := range seeds[3:] {
		r, err := blg.NewReader(bytes.NewReader(b), int64(len(b)))
		for err == nil && r.Next() {
		}
		if err == nil {
			err = r.Err()
		}
		if err == nil {
			t.Errorf("broken seed %d: have no error", i)
		}
	}
}

// TestBLGRecordPairs: FuzzSampleRepeat's seeds hold pairs whose second
// record repeats the first's layout and pairs whose second does not (where
// the real logs are present; the hand-made log's pairs repeat).
func TestBLGRecordPairs(t *testing.T) {
	repeated, not := 0, 0
	for _, p := range blgRecordPairs() {
		var s blg.Sample
		if s.Decode(p.prev, int(p.counters)) != nil {
			continue
		}
		if err := s.Decode(p.next, int(p.counters)); err == nil && s.Repeat {
			repeated++
		} else {
			not++
		}
	}
	if repeated == 0 || not == 0 && corpus.Root() != "" {
		t.Fatalf("%d seed pairs repeat, %d do not; want some of each", repeated, not)
	}
}
