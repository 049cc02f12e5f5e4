package perflibv2

import "github.com/perfcalc/perfcalc/engine/wintype"

// cstring returns the NUL-terminated UTF-16LE string that starts at b[0]
// (within b), and whether its NUL was found.
func cstring(b []byte) (wintype.Text, bool) {
	for i := 0; i+1 < len(b); i += 2 {
		if b[i] == 0 && b[i+1] == 0 {
			return wintype.Text(b[:i:i]), true
		}
	}
	return nil, false
}
