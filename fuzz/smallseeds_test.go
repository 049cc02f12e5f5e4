package fuzz

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"

	"github.com/perfcalc/perfcalc/tools/blgbuild"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// blgSmallSeeds are the seeds of the targets that do a lot per input
// (FuzzRelogMerge, FuzzLongFormats): the hand-made logs, the slices of
// the real logs of at most 8,000 bytes (blgCorpusSeeds' records: the
// whole-log slices of 128 and 256 KiB are left to FuzzBLG and FuzzRelog),
// and the real logs repacked small.
func blgSmallSeeds() [][]byte {
	seeds := blgHandMadeSeeds()
	for _, s := range blgCorpusSeeds() {
		if len(s) <= 8000 {
			seeds = append(seeds, s)
		}
	}
	return append(seeds, blgSmallCorpusSeeds()...)
}

// blgSmallCorpusSeeds returns two real logs of ../shared/corpus (where it
// is present; PAL's samples hold 1,692 columns, too many to be small, and
// its slices in blgCorpusSeeds remain) repacked small: their records (counter list, name table,
// samples, split ones joined) copied in order into a log of 1 KiB buffers
// (blgbuild), up to about maxSeed bytes per log. A mutant of a 128 KiB
// seed costs the fuzzer a hundred times what one of a few KiB does; these
// keep the real logs' contents at the size of the hand-made seeds.
func blgSmallCorpusSeeds() [][]byte {
	root := corpus.Root()
	if root == "" {
		return nil
	}
	dir := filepath.Join(filepath.Dir(root), "shared", "corpus", "blg")
	var seeds [][]byte
	for _, name := range []string{"Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		if s := repackSmall(b); s != nil {
			seeds = append(seeds, s)
		}
	}
	return seeds
}

// maxSeed is about the largest repacked seed: the records that fit, and
// at least two samples.
const maxSeed = 2 << 10

// repackSmall copies the records of the real log b into a log of 1 KiB
// buffers until it holds about maxSeed bytes of records and at least two
// samples; nil when b is not a log it can walk.
func repackSmall(b []byte) []byte {
	le := binary.LittleEndian
	if len(b) < 0x48+0x48 {
		return nil
	}
	bufSize := int(le.Uint32(b[0x48+0x20:])) // the header event's BufferSize
	if bufSize < 1024 || bufSize > len(b) {
		return nil
	}
	var l *blgbuild.Log
	var joined []byte
	samples, total := 0, 0
	for off := 0; off+bufSize <= len(b); off += bufSize {
		buf := b[off : off+bufSize]
		used := int(le.Uint32(buf[0x30:]))
		if used > bufSize {
			return nil
		}
		p := 0x48
		if off == 0 { // the log header event
			p += (int(le.Uint16(buf[p+4:])) + 7) &^ 7
		}
		for p+72 <= used {
			size := int(le.Uint16(buf[p:]))
			if size < 72 || p+size > used {
				break
			}
			typ, ts := buf[p+4], int64(le.Uint64(buf[p+16:]))
			part, count := le.Uint32(buf[p+64:]), le.Uint32(buf[p+68:])
			joined = append(joined, buf[p+72:p+size]...)
			p += (size + 7) &^ 7
			if part != count {
				continue
			}
			if l == nil {
				l = blgbuild.New(1024, ts)
			}
			l.Record(typ, ts, joined, 8000)
			if typ == blgbuild.EventSample {
				samples++
			}
			total += len(joined)
			joined = joined[:0]
			if samples >= 2 && total >= maxSeed {
				return l.Bytes()
			}
		}
	}
	if l == nil {
		return nil
	}
	return l.Bytes()
}

// rawSpec, as the first byte of a spec, makes the rest of it the input
// itself (any bytes, as a plain []byte target takes them).
const rawSpec = 0xFF

// fromSpec returns the input a spec describes: its first byte picks one
// of bases (modulo their number), the rest are edits applied to a copy,
// four bytes each (offset low, offset high, operation, value): set the
// byte at the offset (modulo the input's length) to value, xor it with
// value, cut the input there, or write a little-endian uint32 there (one
// of 0, 1, 0x7FFFFFFF, 0xFFFFFFFF or value<<8|value, by value%5). A first
// byte of rawSpec makes the rest the input. Specs are a few bytes where
// the inputs are KiB: the fuzzer mutates and minimizes them quickly
// (minimizing a []byte costs the square of its length in calls), while
// every edit of the byte-level targets remains reachable.
func fromSpec(bases [][]byte, spec []byte) []byte {
	if len(spec) == 0 || len(bases) == 0 {
		return nil
	}
	if spec[0] == rawSpec {
		return spec[1:]
	}
	in := bytes.Clone(bases[int(spec[0])%len(bases)])
	for e := spec[1:]; len(e) >= 4 && len(in) > 0; e = e[4:] {
		off, op, v := int(binary.LittleEndian.Uint16(e))%len(in), e[2]%4, e[3]
		switch op {
		case 0:
			in[off] = v
		case 1:
			in[off] ^= v
		case 2:
			in = in[:off]
		case 3:
			if off+4 <= len(in) {
				u := [...]uint32{0, 1, 0x7FFFFFFF, 0xFFFFFFFF, uint32(v)<<8 | uint32(v)}[v%5]
				binary.LittleEndian.PutUint32(in[off:], u)
			}
		}
	}
	return in
}
