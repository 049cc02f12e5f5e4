package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// fuzzMachines are the machine names FuzzConvertReruns picks from, besides
// those of its input: the empty one, Hive's default partition's name and
// its escaped form, names that need escaping, names that differ in case.
// (A machine=LINK would be refused: its folder is FuzzConvertReruns' link.)
var fuzzMachines = []string{"", hiveDefault, "%5F_HIVE_DEFAULT_PARTITION__", "SERVER1", "server1", "a/b", "x:y=z%", "é\x01"}

// FuzzConvertReruns (issue 32) drives partitioned convert runs, one after
// the other into one folder, over a few small logs that share file names
// (DataCollector01.blg in several folders) and machines (the empty one,
// __HIVE_DEFAULT_PARTITION__, names that need escaping), with a symbolic
// link to a folder outside and a forged list in the folder. After each run:
// exit status 0; no file outside the folder touched, nor the user's file
// in it; every Parquet file of the dataset is named by some log's list,
// which proves it; every log converted so far has all its rows, once; a
// second run of the same command converts nothing.
func FuzzConvertReruns(f *testing.F) {
	f.Add([]byte{0, 1, 2, 0, 3, 4, 1, 5, 6})
	f.Add([]byte{0x10, 0x00, 0x11, 0x21, 0x02, 0x40, 0x83, 0x03, 0x17})
	f.Add([]byte("\x00\x00\x01\x00\x00\x02\x01\x08\x08\xff"))
	f.Add([]byte("DataCollector01 fleet \x00\x01\x02\x03"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64 {
			return
		}
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			b := int(data[0])
			data = data[1:]
			return b
		}
		dir := t.TempDir()
		out, outside := filepath.Join(dir, "out"), filepath.Join(dir, "outside")
		secret := putFile(t, filepath.Join(outside, "secret.parquet"), []byte("outside"))
		mine := putFile(t, filepath.Join(out, "machine=SERVER1", "mine.txt"), []byte("the user's"))
		if err := os.Symlink(outside, filepath.Join(out, "machine=LINK")); err != nil {
			t.Skip(err)
		}
		putFile(t, filepath.Join(out, partsFolder, "DataCollector01.parts"),
			[]byte("machine=SERVER1/mine.txt\nmachine=LINK/secret.parquet\n../outside/secret.parquet\n"))
		guard := map[string][]byte{}
		for _, p := range []string{secret, mine} {
			b, _ := os.ReadFile(p)
			guard[p] = b
		}
		// Up to four logs: a folder, a name, machines, a start, samples.
		type fuzzLog struct {
			path string
			rows int
		}
		var logs []fuzzLog
		for i := range 1 + next()%4 {
			b := next()
			name := []string{"DataCollector01", "DataCollector01", "s1", "DataCollector01~000000000000"}[b%4]
			var machines []string
			for range 1 + b>>2%3 {
				m := fuzzMachines[next()%len(fuzzMachines)]
				if !strings.Contains(strings.Join(machines, "\n")+"\n", m+"\n") || len(machines) == 0 && m == "" {
					machines = append(machines, m)
				}
			}
			start := tinyLogStart + int64(next()%8)*3*3600*10_000_000 + int64(b>>4)*10_000_000
			// Logs of one identity (header and counter list) are one
			// log: the same samples.
			samples := 1 + int(start/10_000_000+int64(len(machines)))%3
			p := putFile(t, filepath.Join(dir, "logs", fmt.Sprint(i%3), name+".blg"), fleetLog(start, samples, machines...))
			logs = append(logs, fuzzLog{p, samples * len(machines)})
		}
		old := time.Now().Add(-time.Hour)
		for _, l := range logs {
			os.Chtimes(l.path, old, old)
		}
		done := map[string]int{} // identity → rows, of the logs converted
		for range 1 + next()%3 {
			b := next()
			args := []string{"-o", out, "--partition", []string{"machine,date", "machine", "date,machine"}[b%3], "-j", "2"}
			if b&4 != 0 {
				args = append(args, "--force")
			}
			var ins []string
			for i, l := range logs {
				if b>>3&(1<<i) != 0 {
					ins = append(ins, l.path)
				}
			}
			if len(ins) == 0 {
				for _, l := range logs {
					ins = append(ins, l.path)
				}
			}
			for _, l := range logs {
				if strings.Contains(strings.Join(ins, "\n")+"\n", l.path+"\n") {
					id, _, _ := fileIdentity(l.path)
					done[id] = l.rows
				}
			}
			if code, text := convertArgs(t, append(ins, args...)...); code != exitOK {
				t.Fatalf("%q: exit %d\n%s", ins, code, text)
			}
			checkFuzzDataset(t, out, done)
			for p, want := range guard {
				if have, err := os.ReadFile(p); err != nil || !bytes.Equal(have, want) {
					t.Fatalf("%s was touched (%v)", p, err)
				}
			}
			if left, _ := os.ReadDir(outside); len(left) != 1 {
				t.Fatalf("the folder outside holds %d files", len(left))
			}
			again := append(ins, args...)
			if b&4 != 0 {
				again = again[:len(again)-1]
			}
			if code, text := convertArgs(t, again...); code != exitOK || !strings.HasPrefix(text, "converted 0,") {
				t.Fatalf("the same run again: exit %d, %q", code, text)
			}
		}
	})
}

// checkFuzzDataset checks FuzzConvertReruns' dataset: every Parquet file
// is named by a list of convert's that proves it, each list's files hold
// its log's rows (done: identity → rows), and each log of done has one
// list whose files hold all its rows.
func checkFuzzDataset(t *testing.T, out string, done map[string]int) {
	t.Helper()
	listed := map[string]bool{}
	have := map[string]int{}
	lists, _ := filepath.Glob(filepath.Join(out, partsFolder, "*.parts"))
	for _, name := range lists {
		l, err := readList(name)
		if err != nil {
			continue // the forged list: it proves nothing
		}
		rows := 0
		for _, f := range l.files {
			if !proven(out, f) {
				t.Fatalf("%s: %s is not the file written", name, f.rel)
			}
			listed[f.rel] = true
			n, err := parquetRows(filepath.Join(out, filepath.FromSlash(f.rel)))
			if err != nil {
				t.Fatal(err)
			}
			rows += n
		}
		if want, ok := done[l.id]; !ok || rows != want {
			t.Fatalf("%s: %d rows, want %d (a log converted: %v)", name, rows, want, ok)
		}
		have[l.id]++
	}
	for id := range done {
		if have[id] == 0 {
			t.Fatalf("the log %s has no list", id[:identityDigits])
		}
	}
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".parquet") {
			rel, _ := filepath.Rel(out, p)
			if !listed[filepath.ToSlash(rel)] {
				t.Fatalf("%s is in no list", rel)
			}
		}
		return err
	})
}

// parquetRows returns the rows of a Parquet file.
func parquetRows(name string) (int, error) {
	rows, err := parquet.ReadFile[partRow](name)
	return len(rows), err
}
