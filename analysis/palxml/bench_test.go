package palxml

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkLoadExchange2010 loads PAL's biggest threshold file,
// Exchange2010.xml (330 KB, 330 analyses with its inherited files).
func BenchmarkLoadExchange2010(b *testing.B) {
	dir := palDir(b)
	files := map[string][]byte{}
	for _, n := range []string{"Exchange2010.xml", "QuickSystemOverview.xml", "SystemOverview.xml"} {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			b.Fatal(err)
		}
		files[n] = data
	}
	read := func(name string) ([]byte, error) {
		if d, ok := files[name]; ok {
			return d, nil
		}
		return dirReader(dir)(name)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(files["Exchange2010.xml"])))
	for b.Loop() {
		if _, err := Load("Exchange2010.xml", read, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseExchange2010 is the XML reader alone on the same file.
func BenchmarkParseExchange2010(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(palDir(b), "Exchange2010.xml"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}
