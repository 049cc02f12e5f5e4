package identity

import "testing"

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want Mode
	}{{"pdh", PDH}, {"pid", PID}} {
		m, ok := Parse(tc.s)
		if !ok || m != tc.want || m.String() != tc.s || !Valid(m) {
			t.Errorf("Parse(%q) = %v, %v (String %q, Valid %v)", tc.s, m, ok, m.String(), Valid(m))
		}
	}
	for _, s := range []string{"PID", "", "pdh ", "name"} {
		if m, ok := Parse(s); ok || m != PDH {
			t.Errorf("Parse(%q) = %v, %v: want refused", s, m, ok)
		}
	}
	if Valid(Mode(2)) {
		t.Error("Mode(2) is valid")
	}
}

func TestSame(t *testing.T) {
	a := Key{PID: 8, Aux: 4, HasAux: true}
	for _, tc := range []struct {
		prev Key
		want bool
	}{
		{a, false},
		{Key{PID: 9, Aux: 4, HasAux: true}, true},
		{Key{PID: 8, Aux: 5, HasAux: true}, true},
		{Key{PID: 8, Aux: 4}, true},
	} {
		if got := !Same(tc.prev, a); got != tc.want {
			t.Errorf("Same(%+v, %+v) = %v, want %v", tc.prev, a, !got, !tc.want)
		}
	}
}

func TestReused(t *testing.T) {
	last := Key{PID: 8, Aux: 4, HasAux: true}
	for _, tc := range []struct {
		k    Key
		want bool
	}{
		{Key{PID: 8, Aux: 4, HasAux: true}, false},
		{Key{PID: 8, Aux: 5, HasAux: true}, true},
		{Key{PID: 8, Aux: 5}, false},
	} {
		if got := Reused(last, tc.k); got != tc.want {
			t.Errorf("Reused(%+v, %+v) = %v, want %v", last, tc.k, got, tc.want)
		}
	}
	if Reused(Key{PID: 8}, Key{PID: 8, Aux: 5, HasAux: true}) {
		t.Error("Reused without the last creator")
	}
}

func TestMissingNote(t *testing.T) {
	for _, tc := range []struct {
		capture bool
		want    string
	}{
		{false, "Process (\\\\HOST): no ID Process counter in the log; its instances are paired by name (pdh)"},
		{true, "Process (\\\\HOST): no ID Process counter in the capture; its instances are paired by name (pdh)"},
	} {
		if got := MissingNote("Process (\\\\HOST)", Missing(Process, false, false), tc.capture); got != tc.want {
			t.Errorf("MissingNote(%v) = %q, want %q", tc.capture, got, tc.want)
		}
	}
	if got := Missing(Thread, true, false); got != IDThread {
		t.Errorf("Missing(Thread, pid only) = %q", got)
	}
}
