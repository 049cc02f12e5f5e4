//go:build !perfcalcanalyze

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/perfcalc/perfcalc/internal/abi"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// FuzzDecodeExports feeds arbitrary bytes to every decode export: none may
// panic (ErrPanic), and every result must be a well-formed header whose
// records and strings lie within what the export says it wrote.
func FuzzDecodeExports(f *testing.F) {
	f.Add([]byte{}, uint8(0))
	f.Add([]byte("P\x00E\x00R\x00F\x00"), uint8(1))
	f.Add([]byte("1\x00\x00\x002\x00\x00\x00"), uint8(2))
	if root := corpus.Root(); root != "" {
		for _, name := range []string{"v1/s00_obj2.bin", "v1/s00_obj238.bin"} {
			if b, err := os.ReadFile(filepath.Join(root, "..", "shared", "corpus", name)); err == nil {
				f.Add(b, uint8(0))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		if len(data) > 1<<16 {
			return
		}
		n := uint32(copy(inBuf[:], data))
		var rc int32
		switch which % 7 {
		case 0:
			rc = decodeV1(0, n, 0, 0, 0, 0)
		case 1:
			rc = decodeV1(0, n, 0, n, 0, 0)
		case 2:
			rc = decodeNames(0, n, 0)
		case 3:
			rc = decodeBlg(0, n, 0, 0, 0, 0, 0, 0)
		case 4:
			rc = decodeV2(0, n, 0, n, 0, n, 0, 0, 0, 0)
		case 5:
			rc = relogStats(0, n, 0, 0, 0, 0, 0, 0)
		case 6:
			if k := sniff(0, n); k < 0 || k > abi.KindStats {
				t.Fatalf("sniff: %d", k)
			}
			return
		}
		if rc == abi.CodePanic {
			t.Fatalf("panic: %s", errBuf[:errLen])
		}
		if rc >= 0 {
			h := abi.ReadHeader(outBuf)
			if h.Magic != abi.Magic || int(h.StrOff+h.StrLen) != int(rc) || h.RecOff+h.Count*h.RecSize != h.StrOff {
				t.Fatalf("bad result %d: %+v", rc, h)
			}
			for i := 0; i < int(h.Count); i++ {
				parseRecord(outBuf[:], &h, i) // panics on a path outside the strings
			}
		}
	})
}
