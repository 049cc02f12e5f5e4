package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/perfcalc/perfcalc/tools/corpus"
)

// partRow is the part of a long-table row that the partition tests read
// back (with longRow's columns and the machine).
type partRow struct {
	Time      int64    `parquet:"time,timestamp(microsecond:utc)"`
	LocalTime int64    `parquet:"local_time,timestamp(microsecond:local)"`
	Machine   string   `parquet:"machine"`
	Path      string   `parquet:"path"`
	Value     *float64 `parquet:"value,optional"`
	Status    string   `parquet:"status"`
	RawFirst  *uint64  `parquet:"raw_first,optional,uint(64)"`
	RawSecond *uint64  `parquet:"raw_second,optional,uint(64)"`
}

func (r partRow) key() string {
	v := "null"
	if r.Value != nil {
		v = strconv.FormatUint(math.Float64bits(*r.Value), 16)
	}
	var f, s uint64
	if r.RawFirst != nil {
		f = *r.RawFirst
	}
	if r.RawSecond != nil {
		s = *r.RawSecond
	}
	return fmt.Sprint(r.Time, r.LocalTime, r.Machine, r.Path, v, r.Status, f, s)
}

// TestConvertPartition converts the corpus with --partition machine,date
// and reads the dataset back with parquet-go: each file sits in the folder
// of its rows' machine (escaped as Hive does) and UTC date; the files
// together hold exactly relog -f parquet's rows (PowerShell_BadCounterSamples,
// 26 machines over three UTC dates, is split into 78 files), and every
// value is relog -f json's. A second run skips every log; a log newer than
// its list, or whose list names a missing file, is converted again, and a
// file of the earlier run that the new one does not write is removed (the
// list records it as written: its size and time).
func TestConvertPartition(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	out := t.TempDir()
	convert := func(args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"convert", dir, "-o", out, "--partition", "machine,date", "-j", "2"}, args...), nil, &stdout, &stderr)
		if stderr.Len() > 0 {
			t.Errorf("stderr: %q", stderr.String())
		}
		return code, stdout.String()
	}
	code, text := convert()
	if want := "converted 3, skipped 0 (up to date), failed 1"; code != exitError || !strings.Contains(text, want) {
		t.Fatalf("status %d, have\n%s\nwant %q", code, text, want)
	}
	logs := map[string]int{"Tx_BasicPerfCounters": 1, "PowerShell_BadCounterSamples": 78, "PAL_SamplePerfmonLog": 1}
	for name, nfiles := range logs {
		t.Run(name, func(t *testing.T) {
			files, err := filepath.Glob(filepath.Join(out, "machine=*", "date=*", name+".parquet"))
			if err != nil {
				t.Fatal(err)
			}
			if len(files) != nfiles {
				t.Errorf("%d files, want %d", len(files), nfiles)
			}
			ol, err := readList(filepath.Join(out, partsFolder, name+".parts"))
			var list []string
			if err == nil {
				for _, f := range ol.files {
					list = append(list, filepath.FromSlash(f.rel))
				}
			}
			if err != nil || len(list) != len(files) {
				t.Errorf("the list names %d files (%v), want %d", len(list), err, len(files))
			}
			dates := map[string]bool{}
			var have []partRow
			for _, f := range files {
				rel, _ := filepath.Rel(out, f)
				if !slices.Contains(list, rel) {
					t.Errorf("%s is not in the list", rel)
				}
				rows, err := parquet.ReadFile[partRow](f)
				if err != nil {
					t.Fatal(err)
				}
				if len(rows) == 0 {
					t.Errorf("%s has no row", rel)
				}
				parts := strings.Split(rel, string(filepath.Separator))
				machine, _ := url.PathUnescape(strings.TrimPrefix(parts[0], "machine="))
				date := strings.TrimPrefix(parts[1], "date=")
				dates[date] = true
				for _, r := range rows {
					if r.Machine != machine || time.UnixMicro(r.Time).UTC().Format(time.DateOnly) != date {
						t.Fatalf("%s: a row of machine %q at %v (UTC)", rel, r.Machine, time.UnixMicro(r.Time).UTC())
					}
				}
				have = append(have, rows...)
			}
			if name == "PowerShell_BadCounterSamples" && len(dates) != 3 {
				t.Errorf("dates %v, want the three UTC dates the log spans", dates)
			}
			// The same rows as relog -f parquet's file.
			whole := filepath.Join(t.TempDir(), "whole.parquet")
			var stderr bytes.Buffer
			if code := run([]string{"relog", filepath.Join(dir, name+".blg"), "-f", "parquet", "-o", whole}, nil, &bytes.Buffer{}, &stderr); code != 0 {
				t.Fatalf("relog: %d %s", code, stderr.String())
			}
			want, err := parquet.ReadFile[partRow](whole)
			if err != nil {
				t.Fatal(err)
			}
			keys := func(rows []partRow) []string {
				k := make([]string, len(rows))
				for i, r := range rows {
					k[i] = r.key()
				}
				slices.Sort(k)
				return k
			}
			if hk, wk := keys(have), keys(want); !slices.Equal(hk, wk) {
				t.Errorf("the partitions hold %d rows, relog -f parquet %d, not the same", len(hk), len(wk))
			}
			checkJSONValues(t, filepath.Join(dir, name+".blg"), have)
		})
	}
	if left, _ := filepath.Glob(filepath.Join(out, "machine=*", "date=*", ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %q", left)
	}

	code, text = convert()
	if want := "converted 0, skipped 3 (up to date), failed 1"; code != exitError || !strings.Contains(text, want) {
		t.Errorf("second run: status %d, have\n%s\nwant %q", code, text, want)
	}
	// A missing file of a log: that log again.
	tx := filepath.Join(out, "machine=GEORGIS3", "date=2013-02-20", "Tx_BasicPerfCounters.parquet")
	if err := os.Remove(tx); err != nil {
		t.Fatal(err)
	}
	// A file of an earlier run that this one does not write: removed.
	stale := filepath.Join("machine=GEORGIS3", "date=2013-02-19", "Tx_BasicPerfCounters.parquet")
	if err := os.MkdirAll(filepath.Join(out, filepath.Dir(stale)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, stale), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	listPath := filepath.Join(out, partsFolder, "Tx_BasicPerfCounters.parts")
	ol, err := readList(listPath)
	if err != nil {
		t.Fatal(err)
	}
	written, err := stamp(out, filepath.ToSlash(stale))
	if err != nil {
		t.Fatal(err)
	}
	ol.files = append(ol.files, written)
	if err := os.WriteFile(listPath, []byte(ol.text()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, text = convert()
	if want := "converted 1, skipped 2 (up to date), failed 1"; code != exitError || !strings.Contains(text, want) {
		t.Errorf("after a file was removed: status %d, have\n%s\nwant %q", code, text, want)
	}
	if _, err := os.Stat(tx); err != nil {
		t.Errorf("the removed file was not written again: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, stale)); !os.IsNotExist(err) {
		t.Errorf("the earlier run's file %s is still there (%v)", stale, err)
	}
	// A log newer than its list: converted again.
	fi, err := os.Stat(filepath.Join(dir, "Tx_BasicPerfCounters.blg"))
	if err != nil {
		t.Fatal(err)
	}
	older := fi.ModTime().Add(-time.Hour)
	if err := os.Chtimes(listPath, older, older); err != nil {
		t.Fatal(err)
	}
	code, text = convert()
	if want := "converted 1, skipped 2 (up to date), failed 1"; code != exitError || !strings.Contains(text, want) {
		t.Errorf("after the list got older than its log: status %d, have\n%s\nwant %q", code, text, want)
	}
}

// checkJSONValues checks every row's value against relog -f json's for the
// same local time and path: the same double, or null where a row has no
// value; every value of the JSON is some row's.
func checkJSONValues(t *testing.T, log string, rows []partRow) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"relog", log, "-f", "json"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("relog -f json: %d %s", code, stderr.String())
	}
	type cell struct{ time, path string }
	want := map[cell][]*float64{}
	values := 0
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var line struct {
			Time   string                      `json:"time"`
			Values map[string]*json.RawMessage `json:"values"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		for k, v := range line.Values {
			if i := strings.LastIndex(k, " (duplicate "); i > 0 {
				k = k[:i]
			}
			var p *float64
			if v != nil && string(*v) != "null" {
				f, err := strconv.ParseFloat(string(*v), 64)
				if err != nil {
					t.Fatalf("%s: %v", k, err)
				}
				p = &f
				values++
			}
			want[cell{line.Time, k}] = append(want[cell{line.Time, k}], p)
		}
	}
	matched := 0
	for _, r := range rows {
		c := cell{time.UnixMicro(r.LocalTime).UTC().Format("2006-01-02T15:04:05.000"), r.Path}
		ws := want[c]
		i := slices.IndexFunc(ws, func(w *float64) bool {
			return (w == nil) == (r.Value == nil) && (w == nil || math.Float64bits(*w) == math.Float64bits(*r.Value))
		})
		if i < 0 {
			t.Fatalf("%s at %s: value %v is not relog -f json's (%d candidates)", r.Path, c.time, r.Value, len(ws))
		}
		if ws[i] != nil {
			matched++
		}
		want[c] = slices.Delete(ws, i, i+1)
	}
	if matched != values || values == 0 {
		t.Errorf("%d of relog -f json's %d values are in the partitions", matched, values)
	}
}

// TestHiveEscape: the characters Hive and Spark escape in a partition
// value, and the empty value.
func TestHiveEscape(t *testing.T) {
	for in, want := range map[string]string{
		"GEORGIS3":              "GEORGIS3",
		"":                      hiveDefault,
		"a/b=c:d%e":             "a%2Fb%3Dc%3Ad%25e",
		"x y.z-é":               "x y.z-é",
		"q\"#'*?\\{[]^\x01\x7f": "q%22%23%27%2A%3F%5C%7B%5B%5D%5E%01%7F",
	} {
		if have := hiveEscape(in); have != want {
			t.Errorf("hiveEscape(%q) = %q, want %q", in, have, want)
		}
		if in != "" {
			if back, err := url.PathUnescape(hiveEscape(in)); err != nil || back != in {
				t.Errorf("%q unescapes to %q (%v)", hiveEscape(in), back, err)
			}
		}
	}
}

// TestConvertPartitionUsage: the usage errors of --partition.
func TestConvertPartitionUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--partition", "host"},
		{"--partition", "date,date"},
		{"--partition", "machine", "-f", "csv"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"convert", "x.blg", "-o", t.TempDir()}, args...), nil, &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), "--partition") {
			t.Errorf("%q: status %d, stderr %q", args, code, stderr.String())
		}
	}
}
