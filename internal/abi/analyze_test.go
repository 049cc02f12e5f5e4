package abi

import (
	"reflect"
	"strings"
	"testing"
)

// TestValues checks ParseValues and AppendValues: lines, white space, the
// first '=', the refusals, and that what AppendValues writes reads back.
func TestValues(t *testing.T) {
	for _, tc := range []struct {
		text string
		want map[string]string
		err  string
	}{
		{"", nil, ""},
		{"\n \r\n", nil, ""},
		{"PhysicalMemory=32", map[string]string{"PhysicalMemory": "32"}, ""},
		{" OS=Windows Server 2008 R2\r\nA=b=c\n\nA=d\n", map[string]string{"OS": "Windows Server 2008 R2", "A": "d"}, ""},
		{"Empty=", map[string]string{"Empty": ""}, ""},
		{"PhysicalMemory", nil, `"PhysicalMemory" is not NAME=VALUE`},
		{"=32", nil, `"=32" is not NAME=VALUE`},
	} {
		have, err := ParseValues([]byte(tc.text))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || CodeOf(err) != CodeArgument {
				t.Errorf("ParseValues(%q): %v, want an error with %q", tc.text, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(have, tc.want) {
			t.Errorf("ParseValues(%q) = %v, %v; want %v", tc.text, have, err, tc.want)
		}
	}
	values := map[string]string{"b": "2", "a": "x=y z", "c": "", "d ": " 4", "e": "5\r6"}
	text, err := AppendValues(nil, values)
	if err != nil || string(text) != "a=x=y z\nb=2\nc=\nd = 4\ne=5\r6" {
		t.Fatalf("AppendValues = %q, %v", text, err)
	}
	if back, err := ParseValues(text); err != nil || !reflect.DeepEqual(back, values) {
		t.Errorf("ParseValues(AppendValues(%v)) = %v, %v", values, back, err)
	}
	for _, bad := range []map[string]string{{"": "1"}, {"a=b": "1"}, {"a": "1\n2"}, {" a": "1"}, {"a": "1 "}, {"a": "1\r"}, {"\ta": "1"}} {
		if _, err := AppendValues(nil, bad); err == nil || CodeOf(err) != CodeArgument {
			t.Errorf("AppendValues(%q) = %v, want an error", bad, err)
		}
	}
}

// TestThrEntry round-trips a threshold file entry through its layout.
func TestThrEntry(t *testing.T) {
	e := ThrEntry{NameOff: 1, NameLen: 2, DataOff: 3, DataLen: 0xfffffffe, Flags: ThrRun, Reserved: 7}
	b := make([]byte, ThrSize)
	e.Put(b)
	if have := ReadThrEntry(b); have != e {
		t.Errorf("ReadThrEntry(Put(%+v)) = %+v", e, have)
	}
	if get32(b, ThrData+4) != 0xfffffffe || get32(b, ThrFlags) != ThrRun {
		t.Errorf("the entry's bytes %x do not follow the layout", b)
	}
}

// FuzzValues: ParseValues never panics, and what it reads, written back by
// AppendValues, reads back the same.
func FuzzValues(f *testing.F) {
	for _, s := range []string{"", "A=1", " OS=Windows Server\r\nB==\n\n=x", "a\n=\nb=c=d", "x=\x00\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		m, err := ParseValues(text)
		if err != nil {
			if CodeOf(err) != CodeArgument {
				t.Fatalf("ParseValues(%q): %v, code %d", text, err, CodeOf(err))
			}
			return
		}
		b, err := AppendValues(nil, m)
		if err != nil {
			t.Fatalf("AppendValues(ParseValues(%q) = %q): %v", text, m, err)
		}
		back, err := ParseValues(b)
		if err != nil || !reflect.DeepEqual(back, m) && len(m) > 0 {
			t.Fatalf("ParseValues(%q) = %q, %v; want %q", b, back, err, m)
		}
	})
}
