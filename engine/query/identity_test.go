package query_test

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/tools/blgedit"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// palProcess returns the real Process blocks of the PAL sample log (one
// per sample) and its name table.
func palProcess(t *testing.T) ([][]byte, *nametable.Table) {
	dir := corpus.Shared(t, "v1")
	table, err := os.ReadFile(filepath.Join(dir, "pal_counter_009.multisz"))
	if err != nil {
		t.Fatal(err)
	}
	names, err := nametable.Parse(table)
	if err != nil {
		t.Fatal(err)
	}
	var blocks [][]byte
	for s := 0; s <= 10; s++ {
		blocks = append(blocks, readFile(t, filepath.Join(dir, "s"+pad2(s)+"_obj230.bin")))
	}
	return blocks, names
}

// pidOf returns the PID of a pid-mode Process path's instance, name:pid.
func pidOf(t *testing.T, v *query.Value) uint64 {
	i := strings.LastIndexByte(v.Parts.Instance, ':')
	pid, err := strconv.ParseUint(v.Parts.Instance[i+1:], 10, 64)
	if i < 0 || err != nil || v.Parts.Index != 0 {
		t.Fatalf("%s: no :pid", v.Path)
	}
	return pid
}

func TestIdentityPIDCorpus(t *testing.T) {
	blocks, names := palProcess(t)
	pdh := query.New(query.Config{Names: names})
	pid := query.New(query.Config{Names: names, PID: true})
	breaks := 0
	for s := 1; s < len(blocks); s++ {
		a, err := pdh.Run(nil, blocks[s-1], blocks[s])
		if err != nil {
			t.Fatal(err)
		}
		b, err := pid.Run(nil, blocks[s-1], blocks[s])
		if err != nil {
			t.Fatal(err)
		}
		if len(a) != len(b) {
			t.Fatalf("sample %d: %d values by name, %d by PID", s, len(a), len(b))
		}
		breaks += pid.IdentityBreaks()
		// Same order, the same process (ID Process in every instance):
		// where the process kept its PDH name, the same value.
		for i := range b {
			if b[i].Parts.Instance == "_Total" {
				continue
			}
			if b[i].Parts.Counter == "ID Process" && b[i].Raw.FirstValue != pidOf(t, &b[i]) {
				t.Fatalf("%s holds the process %d", b[i].Path, b[i].Raw.FirstValue)
			}
			same := a[i].Value == b[i].Value && a[i].Status == b[i].Status || math.IsNaN(a[i].Value) && math.IsNaN(b[i].Value)
			if !same && pid.IdentityBreaks() == 0 {
				t.Fatalf("sample %d: %s = %v (%v), %s = %v (%v)", s, a[i].Path, a[i].Value, a[i].Status, b[i].Path, b[i].Value, b[i].Status)
			}
		}
		if notes := pid.IdentityNotes(); len(notes) != 0 {
			t.Fatalf("notes %q", notes)
		}
	}
	if breaks != 1 {
		t.Fatalf("%d breaks in the PAL log's Process blocks, want 1 (rundll32#1)", breaks)
	}
}

func TestIdentityPIDExit(t *testing.T) {
	blocks, names := palProcess(t)
	newer, ok, err := blgedit.RemoveInstance(blocks[5], names, "Process", "svchost#2")
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	// By PID, each process's value is the one of the unchanged captures.
	want := map[string]query.Value{}
	orig, err := query.New(query.Config{Names: names, PID: true}).Run(nil, blocks[4], blocks[5])
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range orig {
		want[string(v.Path)] = v
	}
	q := query.New(query.Config{Names: names, PID: true})
	got, err := q.Run(nil, blocks[4], newer)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(orig)-28 {
		t.Fatalf("%d values, want %d less one process", len(got), len(orig))
	}
	for _, v := range got {
		w, ok := want[string(v.Path)]
		if !ok || w.Status != v.Status || w.HasOld != v.HasOld || math.Float64bits(w.Value) != math.Float64bits(v.Value) {
			t.Fatalf("%s = %v (%v), the unchanged captures' %v (%v)", v.Path, v.Value, v.Status, w.Value, w.Status)
		}
	}
	// svchost#3 … #12 are renumbered: 10 breaks, where by name each is
	// computed against another process.
	if q.IdentityBreaks() != 10 {
		t.Fatalf("%d breaks, want 10", q.IdentityBreaks())
	}
	byName, err := query.New(query.Config{Names: names}).Run(nil, blocks[4], newer)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range byName {
		if v.Parts.Instance == "svchost" && v.Parts.Index >= 2 && v.Parts.Counter == "ID Process" && !v.HasOld {
			t.Fatalf("by name, %s has no older value", v.Path)
		}
	}
}

func TestIdentityPIDFallback(t *testing.T) {
	blocks, _ := palProcess(t)
	// Without a name table the object is #230: not recognised, paired by
	// name, no note (the object is not named Process).
	q := query.New(query.Config{PID: true})
	if _, err := q.Run(nil, blocks[0], blocks[1]); err != nil {
		t.Fatal(err)
	}
	if q.IdentityBreaks() != 0 || len(q.IdentityNotes()) != 0 {
		t.Fatalf("breaks %d, notes %q", q.IdentityBreaks(), q.IdentityNotes())
	}
	// A table that names ID Process otherwise: the Process object is
	// paired by name, as without PID, and noted.
	dir := corpus.Shared(t, "v1")
	table := readFile(t, filepath.Join(dir, "pal_counter_009.multisz"))
	from, to := utf16le("\x00ID Process\x00"), utf16le("\x00ID Procesz\x00")
	if strings.Count(string(table), string(from)) != 1 {
		t.Fatalf("the table names ID Process %d times", strings.Count(string(table), string(from)))
	}
	names, err := nametable.Parse([]byte(strings.Replace(string(table), string(from), string(to), 1)))
	if err != nil {
		t.Fatal(err)
	}
	q = query.New(query.Config{Names: names, PID: true})
	got, err := q.Run(nil, blocks[0], blocks[1])
	if err != nil {
		t.Fatal(err)
	}
	want, err := query.New(query.Config{Names: names}).Run(nil, blocks[0], blocks[1])
	if err != nil {
		t.Fatal(err)
	}
	notes := q.IdentityNotes()
	if len(notes) != 1 || notes[0] != "Process: no ID Process counter in the capture; its instances are paired by name (pdh)" {
		t.Fatalf("notes %q", notes)
	}
	for i := range got {
		if string(got[i].Path) != string(want[i].Path) || got[i].Status != want[i].Status || got[i].Status == engine.Valid && got[i].Value != want[i].Value {
			t.Fatalf("%s differs from pdh's %s", got[i].Path, want[i].Path)
		}
	}
}

// utf16le encodes an ASCII string in UTF-16LE.
func utf16le(s string) []byte {
	var b []byte
	for i := range len(s) {
		b = append(b, s[i], 0)
	}
	return b
}
