package blg

// repeats enables Sample.Repeat and the decoding of a sample laid out as
// the one before it by its raw data alone, in the native build and in the
// WebAssembly module alike (there it takes about 7.7 KB and made relog's
// CSV of a 42 MB log about 15% faster); a constant so that the tests name
// what depends on it.
const repeats = true

// repeat decodes a sample record b whose layout is the one of the sample
// decoded before it (Sample.layout): the same record and sub-record
// headers, the same multi-instance sizes, counts, name offsets and names.
// Such a record passes every check decode makes, and its Values differ
// only in their raw data, which repeat fills in. It reports false, having
// changed nothing but raw data in s.Values, when the layout differs: decode
// then decodes b in full.
func (s *Sample) repeat(b []byte, numCounters int) bool {
	L := s.layout
	if s.layoutN == 0 || s.layoutN != numCounters || len(b) < recordHeaderSize || le.Uint64(b) != le.Uint64(L) {
		return false
	}
	size := int(le.Uint32(b[4:]))
	if size > len(b) {
		return false
	}
	b = b[:size]
	q := recordHeaderSize // position in L
	vals := s.Values
	v := 0
	for p := recordHeaderSize; p < len(b); {
		sub := b[p:]
		if len(sub) < recordHeaderSize || len(L)-q < recordHeaderSize || le.Uint64(sub) != le.Uint64(L[q:]) {
			return false
		}
		q += recordHeaderSize
		subSize := int(le.Uint32(sub[4:]))
		if subSize < recordHeaderSize || subSize > len(sub) {
			return false
		}
		body := sub[recordHeaderSize:subSize]
		p += subSize
		switch sub[3] {
		case kindRawCounter:
			if len(body) < rawCounterSize || v >= len(vals) {
				return false
			}
			raw := &vals[v].Raw
			raw.CStatus = le.Uint32(body[0:])
			raw.TimeStamp = int64(le.Uint64(body[4:]))
			raw.FirstValue = le.Uint64(body[16:])
			raw.SecondValue = le.Uint64(body[24:])
			raw.MultiCount = le.Uint32(body[32:])
			v++
		case kindMulti:
			if len(body) < multiHeader || len(L)-q < 8 || le.Uint64(body) != le.Uint64(L[q:]) {
				return false
			}
			q += 8
			size, count := int(le.Uint32(body[0:])), int(le.Uint32(body[4:]))
			items := multiHeader + count*multiItemSize
			if size > len(body) || items > size || count > len(vals)-v || len(L)-q < 4*count+size-items {
				return false
			}
			body = body[:size]
			if string(body[items:]) != string(L[q+4*count:q+4*count+size-items]) {
				return false
			}
			status := le.Uint32(body[8:])
			ts := int64(le.Uint64(body[16:]))
			for i := range count {
				it := body[multiHeader+i*multiItemSize : multiHeader+(i+1)*multiItemSize]
				if le.Uint32(it) != le.Uint32(L[q:]) {
					return false
				}
				q += 4
				raw := &vals[v].Raw
				raw.CStatus = status
				raw.TimeStamp = ts
				raw.FirstValue = le.Uint64(it[8:])
				raw.SecondValue = le.Uint64(it[16:])
				raw.MultiCount = le.Uint32(it[4:])
				v++
			}
			q += size - items
		default:
			return false // whole objects: never a repeat
		}
	}
	return q == len(L) && v == len(vals)
}
