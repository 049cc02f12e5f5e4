package importban

import "testing"

func TestReason(t *testing.T) {
	const engine = "github.com/perfcalc/perfcalc/engine"
	for _, tc := range []struct {
		path    string
		allowed []string
		banned  bool
	}{
		{"fmt", nil, true},
		{"os", nil, true},
		{"os/exec", nil, true},
		{"osx", nil, false}, // not os
		{"strconv", nil, false},
		{"encoding/binary", nil, false},
		{"github.com/leanovate/gopter", nil, true},
		{engine, nil, true},
		{engine, []string{engine}, false},
		{engine + "/perfdata", []string{engine}, false},
		{engine + "x", []string{engine}, true},
		{"golang.org/x/sys/windows", []string{engine}, true},
	} {
		if have := Reason(tc.path, tc.allowed...) != ""; have != tc.banned {
			t.Errorf("Reason(%q, %q): banned = %v, want %v", tc.path, tc.allowed, have, tc.banned)
		}
	}
}

// The package itself is a test helper that reads files with os: Check must
// find that.
func TestCheckFindsOS(t *testing.T) {
	rec := &recorder{TB: t}
	Check(rec)
	if !rec.failed {
		t.Error("Check passed a package that imports os")
	}
}

type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatal(...any)          { r.failed = true }
func (r *recorder) Helper()               {}
