package blg

import (
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/internal/text"
)

// nameTable collects the name-table chunks (event type 0x24) of Vista-era
// logs. Each chunk is the machine name (NUL-terminated UTF-16LE, e.g.
// `\\ZACH-PC`) followed by whole "index\0name\0" pairs; the pairs of all
// chunks, in order, plus one final NUL character, are the machine's
// "Counter 009" table exactly as HKEY_PERFORMANCE_DATA returns it.
type nameTable struct {
	machine string
	pairs   []byte
}

func (t *nameTable) add(b []byte, loc *locator) error {
	const rec = "name table chunk"
	n, ok := text.UTF16Len(b)
	if !ok {
		return newError(rec, -1, loc.at(0), "Machine", "has no NUL before the end of the chunk", engine.ErrMalformed)
	}
	pairs := b[n+2:]
	if len(pairs)%2 != 0 {
		return errf(rec, -1, loc.at(n+2), "", engine.ErrMalformed, "odd length %d for UTF-16 pairs", int64(len(pairs)))
	}
	if t.machine == "" {
		t.machine = utf16String(b)
	}
	if len(t.pairs)+len(pairs)+2 > MaxRecordSize {
		return errf(rec, -1, loc.at(0), "", engine.ErrUnsupported, "name table exceeds the size limit %d", MaxRecordSize)
	}
	t.pairs = append(t.pairs, pairs...)
	return nil
}

// multiSZ returns the table as a REG_MULTI_SZ: the pairs and a final NUL.
func (t *nameTable) multiSZ() []byte {
	if len(t.pairs) == 0 {
		return nil
	}
	out := make([]byte, len(t.pairs)+2)
	copy(out, t.pairs)
	return out
}
