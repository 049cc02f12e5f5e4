package parquetlog

import (
	"bytes"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/logtext"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/longform"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// convert writes a log as Parquet with opts, and as relog's CSV.
func convert(t *testing.T, log []byte, opts Options) (pq []byte, st Stats, csvText []byte) {
	t.Helper()
	c, err := relog.New(bytes.NewReader(log), int64(len(log)), relog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	st, err = Write(&b, longform.FromConverter(c), opts)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := relog.New(bytes.NewReader(log), int64(len(log)), relog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := c2.Write(&text, relog.CSV); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), st, text.Bytes()
}

// TestCorpusEqualsCSV reads every real log's Parquet back with
// parquet-go's reader: every row is a cell of relog's CSV for the same
// local time and path, whose text is the row's value printed with 20
// digits, or " " where the value is null; every non-empty CSV cell has its
// row. Small row groups make several of them.
func TestCorpusEqualsCSV(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	for _, name := range []string{"Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg", "PAL_SamplePerfmonLog.blg"} {
		for _, timeOrder := range []bool{false, true} {
			t.Run(name, func(t *testing.T) {
				log, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				pq, st, text := convert(t, log, Options{RowGroupRows: 4000, TimeOrder: timeOrder})
				rows, err := parquet.Read[record](bytes.NewReader(pq), int64(len(pq)))
				if err != nil {
					t.Fatal(err)
				}
				if int64(len(rows)) != st.Rows {
					t.Fatalf("read %d rows, Write said %d", len(rows), st.Rows)
				}
				f, err := parquet.OpenFile(bytes.NewReader(pq), int64(len(pq)))
				if err != nil {
					t.Fatal(err)
				}
				if want := (st.Rows + 3999) / 4000; int64(len(f.RowGroups())) != want {
					t.Errorf("have %d row groups, want %d", len(f.RowGroups()), want)
				}
				cells := csvCells(t, text)
				seen := 0
				valid := int64(0)
				for i := range rows {
					r := &rows[i]
					key := string(logtext.AppendTime(nil, r.LocalTime*10+116_444_736_000_000_000)) + "|" + r.Path
					want, ok := cells[key]
					if !ok {
						t.Fatalf("row %d (%s): no such CSV cell", i, key)
					}
					have := " "
					if r.Value != nil {
						have = string(engine.AppendFloat(nil, *r.Value, engine.DefaultDigits))
						valid++
					}
					if have != want {
						t.Errorf("row %d (%s): value %q, CSV %q", i, key, have, want)
					}
					if (r.Value != nil) != (r.Status == "Valid") {
						t.Errorf("row %d (%s): value %v with status %s", i, key, r.Value, r.Status)
					}
					if r.RawFirst == nil || r.RawSecond == nil || r.RawMulti == nil || r.RawStatus == nil {
						t.Errorf("row %d (%s): raw values missing", i, key)
					}
					// An independent reading of the path, in the test only.
					s, err := counterpath.Parse(r.Path)
					if err != nil || r.Machine != s.Machine || r.Object != s.Object || r.Counter != s.Counter || (r.Instance != nil) != s.HasInstance {
						t.Errorf("row %d: path parts %q %q %q %v of %q", i, r.Machine, r.Object, r.Counter, r.Instance, r.Path)
					}
					if offset := r.LocalTime - r.Time; offset%60_000_000 != 0 || offset < -14*3600e6 || offset > 14*3600e6 {
						t.Errorf("row %d: local_time − time = %d µs is not a zone offset", i, offset)
					}
					seen++
				}
				if seen != len(cells) || valid != st.Valid {
					t.Errorf("rows %d for %d non-empty CSV cells; %d valid, Write said %d", seen, len(cells), valid, st.Valid)
				}
				if !timeOrder {
					// Within a row group, rows are ordered by series, then time.
					for i := 1; i < len(rows) && i < 4000; i++ {
						if rows[i].Path == rows[i-1].Path && rows[i].Time < rows[i-1].Time {
							t.Fatalf("row %d: time goes back within a series", i)
						}
					}
				}
			})
		}
	}
}

// csvCells maps "local time|path" to the text of every non-empty cell of
// relog's CSV.
func csvCells(t *testing.T, text []byte) map[string]string {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := recs[0]
	m := map[string]string{}
	for _, rec := range recs[1:] {
		for j := 1; j < len(rec); j++ {
			if rec[j] == "" {
				continue
			}
			k := rec[0] + "|" + head[j]
			if _, dup := m[k]; dup {
				t.Fatalf("CSV cell %s twice", k)
			}
			m[k] = rec[j]
		}
	}
	return m
}

// TestSchema: the file's columns are longform.Fields, in order, with
// their nullability, dictionary encoding and logical types.
func TestSchema(t *testing.T) {
	log, err := os.ReadFile(filepath.Join(corpus.Shared(t, "blg"), "Tx_BasicPerfCounters.blg"))
	if err != nil {
		t.Fatal(err)
	}
	pq, _, _ := convert(t, log, Options{})
	f, err := parquet.OpenFile(bytes.NewReader(pq), int64(len(pq)))
	if err != nil {
		t.Fatal(err)
	}
	fields := f.Schema().Fields()
	if len(fields) != len(longform.Fields) {
		t.Fatalf("have %d columns, want %d", len(fields), len(longform.Fields))
	}
	logical := map[string]string{
		"timestamp[us, tz=UTC]": "TIMESTAMP(isAdjustedToUTC=true,unit=MICROS)",
		"timestamp[us]":         "TIMESTAMP(isAdjustedToUTC=false,unit=MICROS)",
		"string":                "STRING",
		"int32":                 "INT(32,true)",
		"double":                "",
		"uint32":                "INT(32,false)",
		"uint64":                "INT(64,false)",
	}
	for i, want := range longform.Fields {
		have := fields[i]
		lt := ""
		if l := have.Type().LogicalType(); l != nil {
			lt = l.String()
		}
		if have.Name() != want.Name || have.Optional() != want.Nullable || lt != logical[want.Arrow] {
			t.Errorf("column %d: have %s optional=%v %s, want %s nullable=%v %s", i, have.Name(), have.Optional(), lt, want.Name, want.Nullable, logical[want.Arrow])
		}
		if enc := f.Metadata().RowGroups[0].Columns[i].MetaData.Encoding; want.Dictionary != slices.Contains(enc, format.RLEDictionary) {
			t.Errorf("column %s: encodings %v, dictionary want %v", want.Name, enc, want.Dictionary)
		}
	}
}

// TestOnlyTheCommandLinksParquet: no package of the module but the perfcalc
// command (and this package and the fuzz targets) depends on parquet-go,
// so that the engine, the module, the host and every library package stay
// free of it.
func TestOnlyTheCommandLinksParquet(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "-test=false", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", "github.com/perfcalc/perfcalc/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := map[string]bool{
		"github.com/perfcalc/perfcalc/cmd/perfcalc":        true,
		"github.com/perfcalc/perfcalc/internal/parquetlog": true,
		"github.com/perfcalc/perfcalc/fuzz":                true,
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, " ")
		if !strings.HasPrefix(pkg, "github.com/perfcalc/perfcalc") {
			continue
		}
		checked++
		if strings.Contains(" "+deps+" ", " github.com/parquet-go/parquet-go ") && !allowed[pkg] {
			t.Errorf("%s depends on parquet-go", pkg)
		}
	}
	if checked < 10 {
		t.Fatalf("go list listed %d perfcalc packages", checked)
	}
}

// TestUncachedSeries: Write without each series' record prepared once (a
// log of very many series) writes the same bytes as with it, for real logs
// (parents, instance indexes, objects without instances) in both row
// orders.
func TestUncachedSeries(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	defer func(n int) { cachedSeries = n }(cachedSeries)
	for _, name := range []string{"Tx_BasicPerfCounters.blg", "PAL_SamplePerfmonLog.blg"} {
		log, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, timeOrder := range []bool{false, true} {
			cachedSeries = 1 << 15
			want, _, _ := convert(t, log, Options{RowGroupRows: 4000, TimeOrder: timeOrder})
			cachedSeries = 0
			got, _, _ := convert(t, log, Options{RowGroupRows: 4000, TimeOrder: timeOrder})
			if !bytes.Equal(got, want) {
				t.Errorf("%s, time order %v: the Parquet differs without the prepared records", name, timeOrder)
			}
		}
	}
}
