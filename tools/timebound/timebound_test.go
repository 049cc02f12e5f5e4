package timebound

import (
	"testing"
	"time"
)

// TestWithinReturns: work within its bound runs to its end and Within
// returns after it.
func TestWithinReturns(t *testing.T) {
	ran := false
	Within(t, 10*time.Second, "a short sleep", func() {
		time.Sleep(time.Millisecond)
		ran = true
	})
	if !ran {
		t.Fatal("Within returned before its work ended")
	}
}

// TestWithinPanics: work past its bound panics, naming the test and the
// work.
func TestWithinPanics(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	defer func() {
		r := recover()
		if want := "TestWithinPanics: a blocked read still running after 10ms"; r != want {
			t.Errorf("recovered %v, want %q", r, want)
		}
	}()
	Within(t, 10*time.Millisecond, "a blocked read", func() { <-block })
	t.Error("Within returned")
}
