// Package timebound bounds the time of a piece of work in the tests that
// prove it linear: a quadratic algorithm or a hang fails the test at the
// bound, where the linear one takes a fraction of it.
package timebound

import (
	"testing"
	"time"
)

// Within runs f and fails the test when it has not returned after limit.
// It panics then rather than calling tb.Fatal: f cannot be stopped, and a
// runaway f (a loop without end, a quadratic load) would go on taking the
// machine's time and memory while the other tests run; the panic ends the
// test binary and names what was still running.
func Within(tb testing.TB, limit time.Duration, what string, f func()) {
	tb.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(limit):
		panic(tb.Name() + ": " + what + " still running after " + limit.String())
	}
}
