package fold

import "testing"

func TestAppend(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{`\\HOST\Processor(_Total)\% Processor Time`, `\\host\processor(_total)\% processor time`},
		{"\u212a", "k"}, // the Kelvin sign
		{"ÄÖÜ", "äöü"},
		{"Σ", "σ"},
	} {
		if have, want := string(Append(nil, tc.a)), string(Append(nil, tc.b)); have != want {
			t.Errorf("Append(%q) = %q, Append(%q) = %q; want them equal", tc.a, have, tc.b, want)
		}
	}
	if have := string(Append([]byte("x"), "AbC")); have != "xabc" {
		t.Errorf("have %q, want %q", have, "xabc")
	}
}
