package counterpath

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf16"
)

// utf16File encodes s as UTF-16 with a byte-order mark, as Notepad saves
// "Unicode" text.
func utf16File(s string, little bool) []byte {
	b := []byte{0xFE, 0xFF}
	if little {
		b = []byte{0xFF, 0xFE}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if little {
			b = append(b, byte(u), byte(u>>8))
		} else {
			b = append(b, byte(u>>8), byte(u))
		}
	}
	return b
}

func TestParseList(t *testing.T) {
	const text = "# counters for the disk report\r\n" +
		"\\Processor(*)\\% Processor Time\r\n" +
		"\r\n" +
		"   \\\\HOST\\PhysicalDisk(0 C:)\\Avg. Disk sec/Read  \r\n" +
		"\t# an indented comment\n" +
		"\\Memory\\Available MBytes"
	want := []string{`\Processor(*)\% Processor Time`, `\\HOST\PhysicalDisk(0 C:)\Avg. Disk sec/Read`, `\Memory\Available MBytes`}
	for _, tc := range []struct {
		name string
		file []byte
	}{
		{"UTF-8", []byte(text)},
		{"UTF-8 with BOM", append([]byte{0xEF, 0xBB, 0xBF}, text...)},
		{"UTF-16LE", utf16File(text, true)},
		{"UTF-16BE", utf16File(text, false)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			paths, err := ParseList(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			if len(paths) != len(want) {
				t.Fatalf("have %d paths, want %d", len(paths), len(want))
			}
			for i, p := range paths {
				if have := p.String(); have != want[i] {
					t.Errorf("path %d: have %q, want %q", i, have, want[i])
				}
			}
		})
	}
}

func TestParseListEmpty(t *testing.T) {
	for _, text := range []string{"", "\n\n", "# nothing\r\n  \r\n"} {
		paths, err := ParseList([]byte(text))
		if err != nil || len(paths) != 0 {
			t.Errorf("%q: have %v, %v; want no paths", text, paths, err)
		}
	}
}

func TestParseListErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		file []byte
		line int
		want string
	}{
		{"bad path on line 3", []byte("\\Memory\\Pages/sec\n\nProcessor(*)\\% Processor Time\n"), 3, "line 3: counterpath: "},
		{"bad path in UTF-16", utf16File("# x\r\n\\Memory\\Pages/sec\r\nnot a path\r\n", true), 3, "line 3: "},
		{"odd UTF-16", append(utf16File("\\Memory\\x", true), 0), 1, "odd number of bytes"},
		{"not UTF-8", []byte("\\Memory\\\xff\n"), 1, "neither UTF-8 nor UTF-16"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseList(tc.file)
			var le *ListError
			if !errors.As(err, &le) || le.Line != tc.line || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("have %v, want line %d and %q", err, tc.line, tc.want)
			}
		})
	}
}
