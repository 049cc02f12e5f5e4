package analyze

import (
	"strconv"
	"testing"
)

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

// TestMissingFile: a file inherited, through another, and not given is
// named by MissingFile (resolved against the folder of the file that
// inherits it); other errors are not.
func TestMissingFile(t *testing.T) {
	files := []ThresholdFile{
		{Name: "dir/a.xml", Data: []byte(`<PAL PALVERSION="2.0"><INHERITANCE FILEPATH="B.xml"/></PAL>`), Run: true},
		{Name: "b.xml", Data: []byte(`<PAL PALVERSION="2.0"><INHERITANCE FILEPATH="sub\c.xml"/></PAL>`)},
	}
	_, err := LoadSet(files, nil)
	if name, ok := MissingFile(err); !ok || name != "dir/sub/c.xml" {
		t.Errorf("LoadSet: %v; MissingFile = %q, %v; want dir/sub/c.xml", err, name, ok)
	}
	_, _, err = Run(nil, [][]byte{[]byte("not a log")}, &Request{Files: files[:1]})
	if name, ok := MissingFile(err); !ok || name != "dir/B.xml" {
		t.Errorf("Run: %v; MissingFile = %q, %v; want dir/B.xml", err, name, ok)
	}
	files[1].Data = []byte(`<PAL PALVERSION="2.0"><INHERITANCE FILEPATH="sub\c.xml"/>`)
	if _, err := LoadSet(files, nil); err == nil {
		t.Fatal("a file cut short loaded")
	} else if name, ok := MissingFile(err); ok {
		t.Errorf("a file cut short: MissingFile = %q", name)
	}
	if _, ok := MissingFile(ErrNoLog); ok {
		t.Error("MissingFile(ErrNoLog)")
	}
}

// TestLoadSetOnce (issue 32, item 10): a given file that INHERITANCE
// reaches under 70 names (other folders, other case) was loaded once per
// name, then refused as more than 64 files; it is loaded once.
func TestLoadSetOnce(t *testing.T) {
	a := `<PAL PALVERSION="2.0" NAME="a">`
	for i := range 70 {
		a += `<INHERITANCE FILEPATH="d` + strconv.Itoa(i) + `\B.xml"/>`
	}
	files := []ThresholdFile{
		{Name: "a.xml", Data: []byte(a + `</PAL>`), Run: true},
		{Name: "b.xml", Data: []byte(`<PAL PALVERSION="2.0"><QUESTION QUESTIONVARNAME="Q" DATATYPE="string" DEFAULTVALUE="x">q</QUESTION><INHERITANCE FILEPATH="A.XML"/></PAL>`)},
	}
	set, err := LoadSet(files, map[string]string{"q": "y"})
	if err != nil || len(set.Questions) != 1 || set.Values["Q"] != "y" {
		t.Fatalf("have %v, %+v; want the set of one question Q=y", err, set)
	}
}
