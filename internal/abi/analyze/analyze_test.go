package analyze

import "testing"

// TestSameFile checks how INHERITANCE finds a given file: by its last
// element, ASCII case ignored.
func TestSameFile(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"SystemOverview.xml", "SystemOverview.xml", true},
		{"DynamicsAX.xml", "dynamicsax.xml", true},
		{`C:\PAL\QuickSystemOverview.xml`, "QuickSystemOverview.xml", true},
		{"pal/QuickSystemOverview.xml", `x\quicksystemoverview.XML`, true},
		{"SystemOverview.xml", "QuickSystemOverview.xml", false},
		{"SystemOverview.xml", "SystemOverview.xm", false},
		{"", "a", false},
		{"É.xml", "é.xml", false}, // ASCII case only, as the module's names are compared
	} {
		if have := sameFile(tc.a, tc.b); have != tc.want {
			t.Errorf("sameFile(%q, %q) = %v, want %v", tc.a, tc.b, have, tc.want)
		}
	}
}
