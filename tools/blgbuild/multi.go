package blgbuild

import "unicode/utf16"

// MultiSample returns a sample record for one wildcard counter-list entry
// (Flags 1): a multi-instance sub-record of the instances names, each with
// FirstValue values[i], SecondValue ts and MultiCount 1 (status 0, time
// stamp ts).
func MultiSample(ts int64, names []string, values []uint64) []byte {
	units := make([][]uint16, len(names))
	for i, name := range names {
		units[i] = utf16.Encode([]rune(name))
	}
	rec := append([]byte{'B', 'L', 3, 0, 0, 0, 0, 0}, MultiSubRecord(ts, units, values)...)
	le.PutUint32(rec[4:], uint32(len(rec)))
	return rec
}

// MultiSubRecord returns the multi-instance sub-record of MultiSample, its
// instances named by UTF-16 code units (any 16-bit units: unpaired
// surrogates too).
func MultiSubRecord(ts int64, names [][]uint16, values []uint64) []byte {
	body := make([]byte, 24+24*len(names))
	le.PutUint32(body[4:], uint32(len(names)))
	le.PutUint64(body[16:], uint64(ts))
	var text []byte
	for i, units := range names {
		q := body[24+24*i:]
		le.PutUint32(q[0:], uint32(len(body)+len(text)))
		le.PutUint32(q[4:], 1)
		le.PutUint64(q[8:], values[i])
		le.PutUint64(q[16:], uint64(ts))
		for _, u := range units {
			text = le.AppendUint16(text, u)
		}
		text = append(text, 0, 0)
	}
	body = append(body, text...)
	for len(body)%8 != 0 {
		body = append(body, 0)
	}
	le.PutUint32(body[0:], uint32(len(body)))
	sub := []byte{'B', 'L', 3, 2, 0, 0, 0, 0}
	le.PutUint32(sub[4:], uint32(8+len(body)))
	return append(sub, body...)
}
