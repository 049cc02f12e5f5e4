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
