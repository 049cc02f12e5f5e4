package engine

// AppendFloatFast is AppendFloat's fast path, for the external tests that
// count how often it falls back to strconv: it reports false (appending
// nothing) where AppendFloat falls back.
func AppendFloatFast(dst []byte, v float64, digits int) ([]byte, bool) {
	var out [64]byte
	n := formatG(&out, v, digits)
	return append(dst, out[:n]...), n > 0
}
