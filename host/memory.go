package host

// sliceMemory is a linear memory in a Go slice, grown by append: wazero's
// own way, the fallback where a mapping cannot be made.
type sliceMemory struct{ b []byte }

func (m *sliceMemory) Reallocate(size uint64) []byte {
	if n := uint64(len(m.b)); size > n {
		m.b = append(m.b, make([]byte, size-n)...)
	}
	return m.b[:size]
}

func (m *sliceMemory) Free() { m.b = nil }
