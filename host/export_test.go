package host

// SetMinPartBytes sets the least part of DecodeBlgParts and RelogTextParts
// for a test and returns what restores it.
func SetMinPartBytes(n int64) (restore func()) {
	old := minPartBytes
	minPartBytes = n
	return func() { minPartBytes = old }
}

// LogParts is logParts, for the tests.
var LogParts = logParts
