package main

import (
	"bytes"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

// fleetLog writes a log of one raw counter per machine ("" a counter path
// without machine) and samples samples one second apart from start (a
// FILETIME), as a data collector of each machine would.
func fleetLog(start int64, samples int, machines ...string) []byte {
	var cs []blgbuild.Counter
	for _, m := range machines {
		if m != "" {
			m = `\\` + m
		}
		cs = append(cs, blgbuild.Counter{Type: uint32(engine.CounterRawcount), Machine: m, Object: "Memory", Counter: "Pages"})
	}
	l := blgbuild.New(64<<10, start)
	l.Record(blgbuild.EventCounterList, start, blgbuild.AppendCounterList(nil, cs...), blgbuild.MaxEventData)
	for i := range samples {
		ts := start + int64(i)*10_000_000
		vals := make([]uint64, len(machines))
		for j := range vals {
			vals[j] = uint64(1000*j + i)
		}
		l.Record(blgbuild.EventSample, ts, blgbuild.RawSample(ts, vals...), blgbuild.MaxEventData)
	}
	return l.Bytes()
}

// convertArgs runs perfcalc convert and returns its exit status and
// standard output.
func convertArgs(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"convert"}, args...), nil, &stdout, &stderr)
	return code, stdout.String() + stderr.String()
}

// datasetRows reads every Parquet file of a partitioned dataset: the rows
// of each machine (by the file's own column), checking that each row sits
// in the folder of its machine, and every file is named by some list of
// out/_perfcalc whose identity is a log's of ids (nil: any).
func datasetRows(t *testing.T, out string) map[string][]partRow {
	t.Helper()
	listed := map[string]bool{}
	lists, _ := filepath.Glob(filepath.Join(out, partsFolder, "*.parts"))
	for _, l := range lists {
		ol, err := readList(l)
		if err != nil {
			continue // not convert's (a test's stale list): it accounts for nothing
		}
		for _, f := range ol.files {
			if !proven(out, f) {
				t.Errorf("%s: %s is not the file written", l, f.rel)
			}
			listed[f.rel] = true
		}
	}
	rows := map[string][]partRow{}
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".parquet") {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		rel = filepath.ToSlash(rel)
		if !listed[rel] {
			t.Errorf("%s is in no list", rel)
		}
		rs, err := parquet.ReadFile[partRow](p)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			for _, e := range strings.Split(rel, "/") {
				if v, ok := strings.CutPrefix(e, "machine="); ok {
					want := hiveEscape(r.Machine)
					if v != want {
						t.Errorf("%s holds a row of machine %q (folder %s)", rel, r.Machine, want)
					}
				}
			}
			rows[r.Machine] = append(rows[r.Machine], r)
		}
		return nil
	})
	return rows
}

// TestConvertSameNamedLogs (issue 32, items 1 and 2): DataCollector01.blg
// of SERVER1, then SERVER2's log of the same name (another folder) into
// the same folder, with and without --partition, SERVER2's log older than
// the first run's outputs (it used to be skipped as up to date) or newer
// (it used to delete SERVER1's partition files, or overwrite its file):
// both logs' rows are in the dataset; a rerun skips both, --force
// converts both again, the dataset unchanged; the first log keeps the plain
// name, the second has its identity's.
func TestConvertSameNamedLogs(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		newer  bool
		second string // the second log's output
	}{
		{"partition older", []string{"--partition", "machine,date"}, false, "_perfcalc/DataCollector01~*.parts"},
		{"partition newer", []string{"--partition", "machine,date"}, true, "_perfcalc/DataCollector01~*.parts"},
		{"csv newer", []string{"-f", "csv"}, true, "DataCollector01~*.csv"},
		{"parquet older", nil, false, "DataCollector01~*.parquet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			s1 := putFile(t, filepath.Join(dir, "server1", "DataCollector01.blg"), fleetLog(tinyLogStart, 5, "SERVER1"))
			s2 := putFile(t, filepath.Join(dir, "server2", "DataCollector01.blg"), fleetLog(tinyLogStart, 3, "SERVER2"))
			old := time.Now().Add(-time.Hour)
			os.Chtimes(s1, old, old)
			os.Chtimes(s2, old, old)
			convert := func(log string, extra ...string) string {
				code, text := convertArgs(t, append(append([]string{log, "-o", out}, tc.args...), extra...)...)
				if code != exitOK {
					t.Fatalf("convert %s: exit %d\n%s", log, code, text)
				}
				return text
			}
			convert(s1)
			if tc.newer {
				later := time.Now().Add(time.Hour)
				os.Chtimes(s2, later, later)
			}
			if text := convert(s2); !strings.HasPrefix(text, "converted 1, skipped 0") {
				t.Errorf("SERVER2's log: %q, want it converted", text)
			}
			if m, _ := filepath.Glob(filepath.Join(out, tc.second)); len(m) != 1 {
				t.Errorf("%s: %q, want one output of the second log", tc.second, m)
			}
			check := func(when string) {
				t.Helper()
				if tc.args != nil && tc.args[0] == "--partition" {
					rows := datasetRows(t, out)
					if len(rows["SERVER1"]) != 5 || len(rows["SERVER2"]) != 3 {
						t.Errorf("%s: the dataset holds %d rows of SERVER1 and %d of SERVER2, want 5 and 3", when, len(rows["SERVER1"]), len(rows["SERVER2"]))
					}
					return
				}
				ext := ".csv"
				if tc.args == nil {
					ext = ".parquet"
				}
				files, _ := filepath.Glob(filepath.Join(out, "DataCollector01*"+ext))
				var machines []string
				for _, f := range files {
					b, _ := os.ReadFile(f)
					for _, m := range []string{"SERVER1", "SERVER2"} {
						if bytes.Contains(b, []byte(m)) {
							machines = append(machines, m)
						}
					}
				}
				if !slices.Equal(machines, []string{"SERVER1", "SERVER2"}) {
					t.Errorf("%s: the outputs %q hold the machines %q, want SERVER1's and SERVER2's", when, files, machines)
				}
			}
			check("after both")
			os.Chtimes(s2, old, old) // a log newer than its list is converted again
			if code, text := convertArgs(t, append([]string{s1, s2, "-o", out}, tc.args...)...); code != exitOK || !strings.HasPrefix(text, "converted 0, skipped 2") {
				t.Errorf("rerun: exit %d, %q, want both skipped", code, text)
			}
			if code, text := convertArgs(t, append([]string{s2, s1, "-o", out, "--force"}, tc.args...)...); code != exitOK || !strings.HasPrefix(text, "converted 2, skipped 0") {
				t.Errorf("--force: exit %d, %q, want both converted", code, text)
			}
			check("after --force")
		})
	}
}

// TestConvertSameNamesOneRun: two logs of one name in one run are both
// converted, each under its identity's name (the name is shared); the
// same log given from two folders is converted once.
func TestConvertSameNamesOneRun(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	s1 := putFile(t, filepath.Join(dir, "a", "DataCollector01.blg"), fleetLog(tinyLogStart, 4, "SERVER1"))
	s2 := putFile(t, filepath.Join(dir, "b", "DataCollector01.blg"), fleetLog(tinyLogStart, 2, "SERVER2"))
	copyOf := putFile(t, filepath.Join(dir, "c", "DataCollector01.blg"), fleetLog(tinyLogStart, 4, "SERVER1"))
	code, text := convertArgs(t, filepath.Join(dir, "*", "DataCollector01.blg"), "-o", out, "--partition", "machine")
	if code != exitOK || !strings.Contains(text, "converted 2, skipped 1") || !strings.Contains(text, copyOf+" is the same log as "+s1) {
		t.Errorf("exit %d, %q; want 2 converted and %s named as %s's copy", code, text, copyOf, s1)
	}
	rows := datasetRows(t, out)
	if len(rows["SERVER1"]) != 4 || len(rows["SERVER2"]) != 2 {
		t.Errorf("the dataset holds %d rows of SERVER1 and %d of SERVER2, want 4 and 2", len(rows["SERVER1"]), len(rows["SERVER2"]))
	}
	if m, _ := filepath.Glob(filepath.Join(out, partsFolder, "DataCollector01~*.parts")); len(m) != 2 {
		t.Errorf("lists %q, want the two logs' under their identities' names", m)
	}
	if code, text := convertArgs(t, s2, s1, "-o", out, "--partition", "machine"); code != exitOK || !strings.HasPrefix(text, "converted 0, skipped 2") {
		t.Errorf("rerun: exit %d, %q", code, text)
	}
}

// TestConvertDeletesOnlyItsFiles (issue 32, item 3): a stale list (an
// older perfcalc's, older than the log), a forged list with the log's own
// identity, and a list with a path that climbs out of the folder name a
// file of the output folder that convert never wrote, a file outside it
// through a symbolic link inside it, and a file above it: converting the
// log deletes none of them (it used to delete the first two).
func TestConvertDeletesOnlyItsFiles(t *testing.T) {
	for _, kind := range []string{"stale", "forged", "climbs"} {
		dir := t.TempDir()
		out, outside := filepath.Join(dir, "out"), filepath.Join(dir, "outside")
		log := putFile(t, filepath.Join(dir, "logs", "DataCollector01.blg"), fleetLog(tinyLogStart, 3, "SERVER1"))
		foreign := putFile(t, filepath.Join(out, "machine=SERVER1", "notes.txt"), []byte("the user's"))
		secret := putFile(t, filepath.Join(outside, "secret.parquet"), []byte("elsewhere"))
		above := putFile(t, filepath.Join(dir, "above.parquet"), []byte("above"))
		if err := os.Symlink(outside, filepath.Join(out, "machine=LINK")); err != nil {
			t.Skip(err)
		}
		list := filepath.Join(out, partsFolder, "DataCollector01.parts")
		names := []string{"machine=SERVER1/notes.txt", "machine=LINK/secret.parquet", "../above.parquet"}
		text := strings.Join(names[:2], "\n") + "\n" // an older perfcalc's list
		if kind != "stale" {
			f, _ := os.Open(log)
			fi, _ := f.Stat()
			id, err := logIdentity(f, fi.Size())
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			// The file of the folder with a time it never had; the file
			// outside and the one above with their true sizes and times.
			l := &outputList{id: id}
			for i, p := range []string{foreign, secret, above} {
				fi, _ := os.Stat(p)
				l.files = append(l.files, listedFile{rel: names[i], size: fi.Size(), mtime: fi.ModTime().UnixNano() + int64(1-min(i, 1))})
			}
			if kind == "forged" {
				l.files = l.files[:2]
			}
			text = l.text()
		}
		putFile(t, list, []byte(text))
		// Older than the log, which is converted again.
		stale := time.Now().Add(-time.Hour)
		os.Chtimes(list, stale, stale)
		code, msg := convertArgs(t, log, "-o", out, "--partition", "machine")
		if code != exitOK || !strings.HasPrefix(msg, "converted 1") {
			t.Errorf("%s: exit %d, %q", kind, code, msg)
		}
		for _, p := range []string{foreign, secret, above} {
			if _, err := os.Stat(p); err != nil {
				t.Errorf("%s: %s was deleted (%v)", kind, p, err)
			}
		}
		if rows := datasetRows(t, out); len(rows["SERVER1"]) != 3 {
			t.Errorf("%s: %d rows of the log, want 3", kind, len(rows["SERVER1"]))
		}
	}
}

// TestConvertPartitionDefaultName (issue 32, item 4): a log with a counter
// path without machine and one of a machine named
// __HIVE_DEFAULT_PARTITION__: each machine's rows in a folder of its own
// (the empty one in __HIVE_DEFAULT_PARTITION__, which the engines read as
// null; the name escaped), none lost. They used to share one folder and
// one writer, the second machine's values written under the first's.
func TestConvertPartitionDefaultName(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	log := putFile(t, filepath.Join(dir, "h.blg"), fleetLog(tinyLogStart, 4, "", hiveDefault, "a%5Fb"))
	if code, text := convertArgs(t, log, "-o", out, "--partition", "machine,date"); code != exitOK {
		t.Fatalf("exit %d, %q", code, text)
	}
	rows := datasetRows(t, out)
	for _, m := range []string{"", hiveDefault, "a%5Fb"} {
		if len(rows[m]) != 4 {
			t.Errorf("machine %q: %d rows, want 4", m, len(rows[m]))
		}
		for _, r := range rows[m] {
			want := float64(1000*slices.Index([]string{"", hiveDefault, "a%5Fb"}, m)) + float64(r.Time-rows[m][0].Time)/1e6
			if r.Value == nil || *r.Value != want {
				t.Errorf("machine %q at %d: value %v, want %v", m, r.Time, r.Value, want)
			}
		}
	}
	for _, folder := range []string{"machine=__HIVE_DEFAULT_PARTITION__", "machine=%5F_HIVE_DEFAULT_PARTITION__", "machine=a%255Fb"} {
		if fi, err := os.Stat(filepath.Join(out, folder)); err != nil || !fi.IsDir() {
			t.Errorf("%s: %v", folder, err)
		}
	}
	// Each folder's value, unescaped as Spark and Hive do, is its machine.
	for in, want := range map[string]string{hiveDefault: "%5F_HIVE_DEFAULT_PARTITION__", "_" + hiveDefault: "_" + hiveDefault} {
		have := hiveEscape(in)
		if back, _ := url.PathUnescape(have); have != want || back != in {
			t.Errorf("hiveEscape(%q) = %q (back %q), want %q", in, have, back, want)
		}
	}
}

// TestConvertOlderListNoted: a log whose name's list is an older
// perfcalc's (paths only, no identity) is written under NAME~ID, as that
// list proves nothing, and convert says so on standard error, naming the
// list, so that a user upgrading a dataset knows why its files appear
// twice; a rerun is up to date and says nothing.
func TestConvertOlderListNoted(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	log := putFile(t, filepath.Join(dir, "SERVER1.blg"), fleetLog(tinyLogStart, 3, "SERVER1"))
	old := putFile(t, filepath.Join(out, "machine=SERVER1", "SERVER1.parquet"), []byte("an older perfcalc's output"))
	putFile(t, filepath.Join(out, partsFolder, "SERVER1.parts"), []byte("machine=SERVER1/SERVER1.parquet\n"))
	code, msg := convertArgs(t, log, "-o", out, "--partition", "machine")
	if code != exitOK || !strings.Contains(msg, "converted 1") {
		t.Fatalf("exit %d, %q", code, msg)
	}
	if !strings.Contains(msg, "note: "+log+": written as SERVER1~") || !strings.Contains(msg, filepath.Join(out, partsFolder, "SERVER1.parts")) {
		t.Errorf("no note naming the older list: %q", msg)
	}
	if b, err := os.ReadFile(old); err != nil || string(b) != "an older perfcalc's output" {
		t.Errorf("the older output was changed: %q, %v", b, err)
	}
	if code, msg := convertArgs(t, log, "-o", out, "--partition", "machine"); code != exitOK || !strings.HasPrefix(msg, "converted 0, skipped 1") || strings.Contains(msg, "note:") {
		t.Errorf("rerun: exit %d, %q", code, msg)
	}
}

// TestConvertOlderOutputNoted: in one-file mode, an output of the log's
// name with no list (an older perfcalc wrote no lists there) proves
// nothing either: the log is written as NAME~ID, the file is kept, and a
// note names both.
func TestConvertOlderOutputNoted(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	log := putFile(t, filepath.Join(dir, "SERVER1.blg"), fleetLog(tinyLogStart, 3, "SERVER1"))
	old := putFile(t, filepath.Join(out, "SERVER1.csv"), []byte("an older perfcalc's output"))
	code, msg := convertArgs(t, log, "-o", out, "-f", "csv")
	if code != exitOK || !strings.Contains(msg, "converted 1") {
		t.Fatalf("exit %d, %q", code, msg)
	}
	if !strings.Contains(msg, "note: "+log+": written as SERVER1~") || !strings.Contains(msg, old+" exists and no list proves it") {
		t.Errorf("no note naming the older output: %q", msg)
	}
	if b, err := os.ReadFile(old); err != nil || string(b) != "an older perfcalc's output" {
		t.Errorf("the older output was changed: %q, %v", b, err)
	}
}

// TestConvertCopiesOfOneLog (the review's H1 and H3, in one run): two
// files of one identity but other content (a log copied while it grew)
// are not "the same log, converted once": the second fails, saying so,
// and the first is converted whole; two logs whose names differ only in
// case (one file on Windows' and macOS's file systems) are two logs of
// one name, written as NAME~ID each.
func TestConvertCopiesOfOneLog(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	full := putFile(t, filepath.Join(dir, "a", "DataCollector01.blg"), fleetLog(tinyLogStart, 4, "SERVER1"))
	early := putFile(t, filepath.Join(dir, "b", "DataCollector01.blg"), fleetLog(tinyLogStart, 2, "SERVER1"))
	code, text := convertArgs(t, full, early, "-o", out, "--partition", "machine")
	if code != exitError || !strings.Contains(text, "converted 1, skipped 0 (up to date), failed 1") ||
		!strings.Contains(text, "failed: "+early+": it has the identity of "+full+" (the same log header and counter list) but other content") {
		t.Errorf("exit %d, %q", code, text)
	}
	if rows := datasetRows(t, out); len(rows["SERVER1"]) != 4 {
		t.Errorf("%d rows of SERVER1, want the full log's 4", len(rows["SERVER1"]))
	}

	out2 := filepath.Join(dir, "out2")
	upper := putFile(t, filepath.Join(dir, "c", "DataCollector01.blg"), fleetLog(tinyLogStart, 3, "SERVER1"))
	lower := putFile(t, filepath.Join(dir, "d", "datacollector01.BLG"), fleetLog(tinyLogStart, 2, "SERVER2"))
	if code, text := convertArgs(t, upper, lower, "-o", out2, "-f", "csv"); code != exitOK || !strings.Contains(text, "converted 2") {
		t.Errorf("names in two cases: exit %d, %q", code, text)
	}
	m, _ := filepath.Glob(filepath.Join(out2, "*.csv"))
	for _, f := range m {
		if b := filepath.Base(f); !strings.HasPrefix(strings.ToLower(b), "datacollector01~") {
			t.Errorf("%s: want NAME~ID for two logs whose names differ only in case", b)
		}
	}
	if len(m) != 2 {
		t.Errorf("outputs %q, want two", m)
	}
}
