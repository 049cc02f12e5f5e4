package main

import (
	"bufio"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/perfcalc/perfcalc/internal/longform"
	"github.com/perfcalc/perfcalc/internal/parquetlog"
)

// Partitioned outputs (convert --partition): each log's rows go to
// DIR/machine=NAME/date=YYYY-MM-DD/<log>.parquet, Hive's layout, which
// Spark, DuckDB and Trino read as a partitioned dataset. The files keep
// every column of the long table (machine among them), so that each one is
// also an ordinary perfcalc Parquet file; date is the UTC date of the rows'
// time column. The list of a log's outputs is kept in
// DIR/_perfcalc/<log>.parts (readers skip names that begin with _ or .),
// written last: it tells a later run whether the log is up to date and
// which of its old outputs to remove (convertlist.go: <log> is the log's
// slot, its file name or its file name and identity).

// partitionKeys are the partition columns convert --partition knows.
var partitionKeys = []string{"machine", "date"}

// partsFolder is the folder of the lists of outputs, in DIR.
const partsFolder = "_perfcalc"

// maxPartitions bounds the partitions of one log: each is a Parquet
// writer with its row group in memory while the log is read.
const maxPartitions = 128

// hiveDefault is the partition value Hive, Spark and DuckDB write for an
// empty or null value (a counter path without machine), and read as null.
const hiveDefault = "__HIVE_DEFAULT_PARTITION__"

// parsePartition reads --partition's list: column names of partitionKeys,
// each once, in the order of the folders.
func parsePartition(s string) ([]string, error) {
	var keys []string
	for _, k := range strings.Split(s, ",") {
		k = strings.TrimSpace(k)
		if !slices.Contains(partitionKeys, k) {
			return nil, fmt.Errorf("--partition: %q is not a partition column (%s)", k, strings.Join(partitionKeys, ", "))
		}
		if slices.Contains(keys, k) {
			return nil, fmt.Errorf("--partition: %s is given twice", k)
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// hiveEscape escapes a partition value as Hive (FileUtils.escapePathName)
// and Spark (ExternalCatalogUtils.escapePathName) do: the control
// characters and "#%'*/:=?\^{[] and DEL become %XX (upper-case hex), and
// an empty value is __HIVE_DEFAULT_PARTITION__, which the engines read as
// null. A value that is __HIVE_DEFAULT_PARTITION__ itself is written
// %5F_HIVE_DEFAULT_PARTITION__ (Hive's escaping leaves _ alone, and would
// give it the empty value's folder): every value has a folder of its own.
func hiveEscape(v string) string {
	if v == "" {
		return hiveDefault
	}
	if v == hiveDefault {
		// The name itself, not an empty value: its first _ escaped, which
		// Hive and Spark read back as _ (and not as null).
		return "%5F" + v[1:]
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if (c >= 0x01 && c <= 0x1f) || c == 0x7f || strings.IndexByte("\"#%'*/:=?\\{[]^", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// utcDate returns the UTC date of a UTC FILETIME, as YYYY-MM-DD.
func utcDate(ft int64) string {
	us := longform.UnixMicros(ft)
	return time.UnixMicro(us).UTC().Format(time.DateOnly)
}

// partWriter is one partition's Parquet writer, fed samples through a
// channel by the goroutine that reads the log.
type partWriter struct {
	rel   string // its path relative to DIR (slashes)
	group int    // its machine's group of series
	tmp   *tempFile
	in    chan partSample
	done  chan error
}

// partSample is a sample for one partition: its cells (of the partition's
// series) and the bias the log's clock applied to it.
type partSample struct {
	time  int64
	bias  int32
	cells []longform.Cell
}

// chanRows is the longform.Rows of a partition writer: the samples of its
// channel. It sets the table's clock to each sample's bias, so that the
// writer gets the instants the log's clock gave, in the log's order of all
// samples (a clock that saw only this partition's samples could resolve
// an ambiguous hour otherwise).
type chanRows struct {
	in    <-chan partSample
	clock *longform.Clock
	s     longform.Sample
}

func (r *chanRows) Next() bool {
	ps, ok := <-r.in
	if !ok {
		return false
	}
	*r.clock = *longform.FixedClock(ps.bias)
	r.s.Time, r.s.Cells = ps.time, ps.cells
	return true
}

func (r *chanRows) Sample() *longform.Sample { return &r.s }
func (r *chanRows) Err() error               { return nil }

// convertPartitioned converts one log into its partitions (keys), each
// file written through a temporary file, then its list of outputs; the
// outputs of an earlier run that this one did not write are removed. A
// damaged log writes nothing.
func convertPartitioned(j *job, outDir string, keys []string, digits, maxColumns int, srcs *nameSources) (err error) {
	c, closeIn, err := j.open(digits, maxColumns, srcs)
	if err != nil {
		return err
	}
	defer closeIn()
	defer func() { j.idNotes, j.idBreaks = append([]string(nil), c.IdentityNotes()...), c.IdentityBreaks() }()
	t := longform.FromConverter(c)
	base := j.slot.slot
	byMachine := slices.Contains(keys, "machine")
	// The series of each machine (all in one group without machine).
	groupOf := make([]int, len(t.Series))
	var groups [][]int
	var machines []string
	for i := range t.Series {
		m := ""
		if byMachine {
			m = t.Series[i].Machine
		}
		g := slices.Index(machines, m)
		if g < 0 {
			g = len(machines)
			machines = append(machines, m)
			groups = append(groups, nil)
		}
		groupOf[i] = g
		groups[g] = append(groups[g], i)
	}
	writers := map[string]*partWriter{}
	var order []*partWriter
	var wg sync.WaitGroup
	finish := func() (failed error) {
		for _, w := range order {
			close(w.in)
		}
		wg.Wait()
		for _, w := range order {
			if err := <-w.done; err != nil && failed == nil {
				failed = fmt.Errorf("%s: %v", w.rel, err)
			}
		}
		return failed
	}
	discard := func() {
		for _, w := range order {
			w.tmp.discard()
		}
	}
	open := func(machine, date string) (*partWriter, error) {
		var dirs []string
		for _, k := range keys {
			if k == "machine" {
				dirs = append(dirs, "machine="+hiveEscape(machine))
			} else {
				dirs = append(dirs, "date="+date)
			}
		}
		rel := strings.Join(append(dirs, base+".parquet"), "/")
		g := slices.Index(machines, machine)
		if w := writers[rel]; w != nil {
			if w.group != g {
				// Unreachable while hiveEscape is injective: never one
				// writer for two machines' series.
				return nil, fmt.Errorf("the machines %q and %q would share %s", machines[w.group], machine, rel)
			}
			return w, nil
		}
		if len(order) == maxPartitions {
			return nil, fmt.Errorf("the log has more than %d partitions (%s); partition by fewer columns", maxPartitions, strings.Join(keys, ","))
		}
		if err := mkdirInside(outDir, strings.Join(dirs, "/")); err != nil {
			return nil, err
		}
		dir := filepath.Join(outDir, filepath.FromSlash(strings.Join(dirs, "/")))
		tmp, err := newTempFile(dir, base+".parquet")
		if err != nil {
			return nil, err
		}
		w := &partWriter{rel: rel, group: g, tmp: tmp, in: make(chan partSample, 16), done: make(chan error, 1)}
		var ss []longform.Series
		for _, i := range groups[g] {
			ss = append(ss, t.Series[i])
		}
		clock := longform.FixedClock(0)
		table := &longform.Table{Series: ss, Rows: &chanRows{in: w.in, clock: clock}, Clock: clock}
		wg.Add(1)
		go func() {
			defer wg.Done()
			bw := bufio.NewWriterSize(tmp, 1<<16)
			_, err := parquetlog.Write(bw, table, parquetlog.Options{Version: currentVersion().Version})
			if err == nil {
				err = bw.Flush()
			}
			// After a failure, take what comes so that the reader never
			// blocks; the failure is reported when the log is done.
			for range w.in {
			}
			w.done <- err
		}()
		writers[rel] = w
		order = append(order, w)
		return w, nil
	}
	var ferr error
	for ferr == nil && t.Rows.Next() {
		s := t.Rows.Sample()
		utc := t.Clock.UTC(s.Time)
		bias := int32((utc - s.Time) / (60 * 10_000_000))
		date := utcDate(utc)
		for g, machine := range machines {
			var cells []longform.Cell
			for k, i := range groups[g] {
				if i < len(s.Cells) && s.Cells[i].Present {
					if cells == nil {
						cells = make([]longform.Cell, len(groups[g]))
					}
					cells[k] = s.Cells[i]
				}
			}
			if cells == nil {
				continue
			}
			w, err := open(machine, date)
			if err != nil {
				ferr = err
				break
			}
			w.in <- partSample{time: s.Time, bias: bias, cells: cells}
		}
	}
	werr := finish()
	if ferr == nil {
		ferr = t.Rows.Err()
	}
	if ferr == nil {
		ferr = werr
	}
	if ferr != nil {
		discard()
		return ferr
	}
	// The outputs, then the list that names them, then the removal of the
	// old outputs no longer listed (those the log's earlier list proves
	// convert wrote).
	old, _ := readList(j.slot.list)
	list := &outputList{id: j.id}
	for _, w := range order {
		err := w.tmp.commit(filepath.Join(outDir, filepath.FromSlash(w.rel)), 0o644)
		var f listedFile
		if err == nil {
			f, err = stamp(outDir, w.rel)
		}
		if err != nil {
			for _, v := range order {
				if v != w {
					v.tmp.discard()
				}
			}
			return fmt.Errorf("%s: %v", w.rel, err)
		}
		list.files = append(list.files, f)
	}
	slices.SortFunc(list.files, func(a, b listedFile) int { return strings.Compare(a.rel, b.rel) })
	if err := writeList(j.slot.list, list); err != nil {
		return err
	}
	removeUnlisted(outDir, old, list)
	return nil
}
