package main

import (
	"os"
	"testing"

	"github.com/perfcalc/perfcalc/internal/abi"
)

// parseRecord reads record i of the result in b, whose header is h, and its
// path.
func parseRecord(b []byte, h *abi.Header, i int) (abi.Record, string) {
	r := b[int(h.RecOff)+i*int(h.RecSize):]
	off, n := abi.RecordPath(r)
	s := b[h.StrOff : h.StrOff+h.StrLen]
	return abi.ReadRecord(r), string(s[off : off+n])
}

// mustRead returns the file's bytes.
func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readText collects a text export's text, from its first result rc, page
// by page: a full output buffer with CodeSpace and a cursor (last_detail)
// for decode_next, up to the last page's length. next, when set, replaces
// the output buffer before each next page. It returns the text and the
// number of pages.
func readText(t *testing.T, rc int32, next func(page int)) ([]byte, int) {
	t.Helper()
	var text []byte
	for page := 1; ; page++ {
		if rc >= 0 {
			return append(text, outBuf[:rc]...), page
		}
		if rc != abi.CodeSpace || lastDetail%2 != 1 {
			t.Fatalf("page %d: rc %d, last_detail %d (%s), want a page and an odd cursor", page, rc, lastDetail, errBuf[:errLen])
		}
		text = append(text, outBuf...)
		if next != nil {
			next(page)
		}
		rc = decodeNext(lastDetail)
	}
}
