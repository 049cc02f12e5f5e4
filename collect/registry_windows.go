package collect

import (
	"errors"

	"golang.org/x/sys/windows"
)

// HKEY_PERFORMANCE_NLSTEXT (winreg.h): name tables in the user's language.
// golang.org/x/sys/windows names HKEY_PERFORMANCE_DATA only.
const hkeyPerformanceNLSText = windows.Handle(0x80000060)

// Registry query buffers start at 256 KiB, double on ERROR_MORE_DATA and
// stop at maxRegistryBytes: a machine whose performance data is larger
// than that gets an error instead of an ever-growing buffer.
const (
	firstRegistryBytes = 256 << 10
	maxRegistryBytes   = 512 << 20
)

// errRegistryTooLarge is the error of a query whose data exceeds
// maxRegistryBytes.
var errRegistryTooLarge = errors.New("collect: HKEY_PERFORMANCE_DATA returned ERROR_MORE_DATA at 512 MiB")

// registry is the live RegistrySource: RegQueryValueEx on
// HKEY_PERFORMANCE_DATA.
type registry struct {
	last string   // the last query name
	name []uint16 // its UTF-16 form
	typ  uint32
	size uint32
}

// OpenRegistry returns the live V1 source of this machine. Its Query
// reuses the array of the dst it is given (growing it as needed), so that
// a steady run makes no new buffer; Close calls
// RegCloseKey(HKEY_PERFORMANCE_DATA), which unloads the provider DLLs.
func OpenRegistry() (RegistrySource, error) { return &registry{}, nil }

// Query runs RegQueryValueEx(HKEY_PERFORMANCE_DATA, name) into dst's
// array (from its start), doubling the buffer on ERROR_MORE_DATA: the
// size that call reports is not a reliable "needed" size.
func (r *registry) Query(dst []byte, name string) ([]byte, error) {
	if name != r.last || r.name == nil {
		u, err := windows.UTF16FromString(name)
		if err != nil {
			return dst[:0], err
		}
		r.last, r.name = name, u
	}
	return r.value(windows.HKEY_PERFORMANCE_DATA, &r.name[0], dst)
}

// value reads one registry value of key into dst's array.
func (r *registry) value(key windows.Handle, name *uint16, dst []byte) ([]byte, error) {
	dst = dst[:cap(dst)]
	if len(dst) < firstRegistryBytes {
		dst = make([]byte, firstRegistryBytes)
	}
	for {
		r.size = uint32(len(dst))
		err := windows.RegQueryValueEx(key, name, nil, &r.typ, &dst[0], &r.size)
		switch {
		case err == nil:
			if int(r.size) > len(dst) {
				return dst[:0], errors.New("collect: RegQueryValueEx reported more bytes than its buffer holds")
			}
			return dst[:r.size], nil
		case err != windows.ERROR_MORE_DATA:
			return dst[:0], err
		case len(dst) >= maxRegistryBytes:
			return dst[:0], errRegistryTooLarge
		}
		dst = make([]byte, min(2*len(dst), maxRegistryBytes))
	}
}

// NameTable reads "Counter 009" from HKEY_PERFORMANCE_DATA (English) or
// "Counter" from HKEY_PERFORMANCE_NLSTEXT (the user's language).
func (r *registry) NameTable(local bool) ([]byte, error) {
	var key windows.Handle = windows.HKEY_PERFORMANCE_DATA
	name := "Counter 009"
	if local {
		key, name = hkeyPerformanceNLSText, "Counter"
	}
	u, err := windows.UTF16FromString(name)
	if err != nil {
		return nil, err
	}
	var rr registry
	b, err := rr.value(key, &u[0], nil)
	if err != nil {
		return nil, err
	}
	if rr.typ != windows.REG_MULTI_SZ {
		return nil, errors.New("collect: the counter name table is not a REG_MULTI_SZ")
	}
	// A copy of the right size: the buffer may be much larger.
	return append([]byte(nil), b...), nil
}

// Close calls RegCloseKey(HKEY_PERFORMANCE_DATA).
func (r *registry) Close() error { return windows.RegCloseKey(windows.HKEY_PERFORMANCE_DATA) }
