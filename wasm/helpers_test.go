package main

import "github.com/perfcalc/perfcalc/internal/abi"

// parseRecord reads record i of the result in b, whose header is h, and its
// path.
func parseRecord(b []byte, h *abi.Header, i int) (abi.Record, string) {
	r := b[int(h.RecOff)+i*int(h.RecSize):]
	off, n := abi.RecordPath(r)
	s := b[h.StrOff : h.StrOff+h.StrLen]
	return abi.ReadRecord(r), string(s[off : off+n])
}
