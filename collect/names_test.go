package collect

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine/translate"
	"github.com/perfcalc/perfcalc/tools/encode"
)

func germanTable(t *testing.T) []byte {
	t.Helper()
	b, err := encode.EncodeNameTable(&encode.NameTable{Pairs: []encode.NameTablePair{
		{Index: 1, Text: "1847"}, {Index: 2, Text: "System"}, {Index: 6, Text: "Prozessorzeit (%)"},
		{Index: 238, Text: "Prozessor"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSaveNameTables: the machine's two tables are written as the
// registry gives them, and they pair into translations (English by its
// contents, whatever the file names); a machine without a local table
// gets the English one and a note.
func TestSaveNameTables(t *testing.T) {
	c := loadV1Corpus(t)
	de := germanTable(t)
	dir := filepath.Join(t.TempDir(), "names")
	files, localErr, err := SaveNameTables(&fakeRegistry{c: c, local: de}, dir)
	if err != nil || localErr != nil || len(files) != 2 {
		t.Fatalf("have %v, %v, %v", files, localErr, err)
	}
	en, err1 := os.ReadFile(filepath.Join(dir, EnglishTableFile))
	local, err2 := os.ReadFile(filepath.Join(dir, LocalTableFile))
	if err1 != nil || err2 != nil || !bytes.Equal(en, c.names) || !bytes.Equal(local, de) {
		t.Fatalf("the files do not hold the tables: %v %v", err1, err2)
	}
	enT, deT := mustTable(t, en), mustTable(t, local)
	if !translate.IsEnglish(enT) || translate.IsEnglish(deT) {
		t.Fatal("IsEnglish does not tell the tables apart")
	}
	var b translate.Builder
	b.AddTables(b.Source("machine"), enT, deT, "local")
	if have, _, _, _ := b.Table().Path(`\\PC\Prozessor(_Total)\Prozessorzeit (%)`); have != `\\PC\Processor(_Total)\% Processor Time` {
		t.Errorf("the saved tables translate to %s", have)
	}

	files, localErr, err = SaveNameTables(&fakeRegistry{c: c}, t.TempDir())
	if err != nil || localErr == nil || len(files) != 1 || !strings.HasSuffix(files[0], EnglishTableFile) {
		t.Errorf("without a local table: have %v, %v, %v", files, localErr, err)
	}
	if _, _, err := SaveNameTables(&scriptRegistry{}, t.TempDir()); err == nil || !strings.Contains(err.Error(), "Counter 009") {
		t.Errorf("without an English table: %v", err)
	}
}

// TestRegistrySaveLocalTable: Config.SaveDir keeps the system's table
// beside the English one even when every path is English, and an English
// path on a German machine gives English values.
func TestRegistrySaveLocalTable(t *testing.T) {
	c := loadV1Corpus(t)
	dir := t.TempDir()
	f := &fakeRegistry{c: c, local: germanTable(t)}
	col, err := NewRegistry(f, Config{Paths: mustPaths(t, `\Processor(_Total)\% Processor Time`), SaveDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var s Sample
	if err := col.Collect(&s); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, LocalTableFile)); err != nil || !bytes.Equal(b, f.local) {
		t.Errorf("%s: %v", LocalTableFile, err)
	}
	if len(s.Values) != 1 || !strings.HasSuffix(string(s.Values[0].Path), `\Processor(_Total)\% Processor Time`) {
		t.Errorf("values: %q", firstPath(s.Values))
	}
}
