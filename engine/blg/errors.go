package blg

import (
	"errors"
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
)

// ErrNotRewindable is Rewind's error for a Reader from NewStreamReader.
var ErrNotRewindable = errors.New("blg: a stream reader cannot rewind")

// formatName is the Format of every FormatError this package returns.
const formatName = "blg"

// newError builds a *engine.FormatError for this package. index is the
// record's index among records of its kind, or −1.
//
//go:noinline
func newError(record string, index int, off int64, field, detail string, sentinel error) *engine.FormatError {
	return &engine.FormatError{
		Format: formatName,
		Record: record,
		Index:  index,
		Offset: off,
		Field:  field,
		Detail: detail,
		Err:    sentinel,
	}
}

// errf builds a *engine.FormatError whose detail is format with each %d
// replaced by the next argument in decimal, each %u by the next argument
// read as a uint64 in decimal, each %x by "0x" and the next argument in
// hexadecimal, and %% by %. One call per error site, whatever its numbers,
// keeps the WebAssembly module small: a detail built by concatenation
// costs a call per piece at every site.
//
//go:noinline
func errf(record string, index int, off int64, field string, sentinel error, format string, args ...int64) *engine.FormatError {
	b := make([]byte, 0, len(format)+16*len(args))
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b = append(b, c)
			continue
		}
		i++
		if format[i] == '%' || len(args) == 0 {
			b = append(b, format[i])
			continue
		}
		v := args[0]
		args = args[1:]
		switch format[i] {
		case 'd':
			b = strconv.AppendInt(b, v, 10)
		case 'x':
			b = strconv.AppendUint(append(b, "0x"...), uint64(v), 16)
		default: // 'u'
			b = strconv.AppendUint(b, uint64(v), 10)
		}
	}
	return newError(record, index, off, field, string(b), sentinel)
}

// Detail-text helpers, built without fmt.

//go:noinline
func itoa(v int64) string { return strconv.FormatInt(v, 10) }

//go:noinline
func utoa(v uint64) string { return strconv.FormatUint(v, 10) }

//go:noinline
func hexa(v uint64) string { return "0x" + strconv.FormatUint(v, 16) }

// exceeds returns "<what> <v> exceeds <limitName> <limit>".
func exceeds(v uint64, limitName string, limit uint64) string {
	return utoa(v) + " exceeds " + limitName + " " + utoa(limit)
}
