package blgbuild

// MultiSample returns a sample record for one wildcard counter-list entry
// (Flags 1): a multi-instance sub-record of the instances names, each with
// FirstValue values[i], SecondValue ts and MultiCount 1 (status 0, time
// stamp ts).
func MultiSample(ts int64, names []string, values []uint64) []byte {
	body := make([]byte, 24+24*len(names))
	le.PutUint32(body[4:], uint32(len(names)))
	le.PutUint64(body[16:], uint64(ts))
	var text []byte
	for i, name := range names {
		q := body[24+24*i:]
		le.PutUint32(q[0:], uint32(len(body)+len(text)))
		le.PutUint32(q[4:], 1)
		le.PutUint64(q[8:], values[i])
		le.PutUint64(q[16:], uint64(ts))
		text = append(text, UTF16Z(name)...)
	}
	body = append(body, text...)
	for len(body)%8 != 0 {
		body = append(body, 0)
	}
	le.PutUint32(body[0:], uint32(len(body)))
	rec := []byte{'B', 'L', 3, 0, 0, 0, 0, 0, 'B', 'L', 3, 2, 0, 0, 0, 0}
	le.PutUint32(rec[12:], uint32(8+len(body)))
	rec = append(rec, body...)
	le.PutUint32(rec[4:], uint32(len(rec)))
	return rec
}
