package blg

import (
	"encoding/binary"

	"github.com/perfcalc/perfcalc/engine"
)

// trailerFixed is the size of the trailer's decoded fixed part.
const trailerFixed = 24

// Trailer is the summary record (event type 0x23) that Vista-era logs end
// with. Its fixed part holds the first and last sample time stamps (as the
// sample events carry them) and the number of samples; "BL" 03 05
// sub-records with a per-object summary of the counter definitions follow,
// which this package keeps as bytes.
//
//	+0  i64 FirstTime
//	+8  i64 LastTime
//	+16 u32 Samples
//	+20 u32 Objects   (observed: the number of objects logged)
//	+24 u32 Size      (observed: the record's size)
//	+28 u32 unknown
//	+32 sub-records
type Trailer struct {
	Offset    int64 // file offset of the event
	FirstTime int64
	LastTime  int64
	Samples   uint32
	Objects   uint32
	Record    []byte // the whole record (a copy)
}

func parseTrailer(b []byte, off int64, loc *locator) (*Trailer, error) {
	if len(b) < trailerFixed {
		return nil, errf("trailer", -1, loc.at(0), "", engine.ErrTruncated, "needs %d bytes, have %d", trailerFixed, int64(len(b)))
	}
	le := binary.LittleEndian
	return &Trailer{
		Offset:    off,
		FirstTime: int64(le.Uint64(b[0:])),
		LastTime:  int64(le.Uint64(b[8:])),
		Samples:   le.Uint32(b[16:]),
		Objects:   le.Uint32(b[20:]),
		Record:    append([]byte(nil), b...),
	}, nil
}
