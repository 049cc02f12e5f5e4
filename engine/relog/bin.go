package relog

import (
	"errors"
	"io"
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/logtext"
)

// Renamer renames what a log written by WriteBin names (perfcalc relog
// --redact); WriteBin's nil Renamer keeps every name.
type Renamer interface {
	// Header renames in a log header.
	Header(h *blg.LogHeader)
	// Counter renames in a counter-list entry of a log rewritten entry
	// by entry.
	Counter(c *blg.CounterInfo)
	// Path renames a column's parts (a log written column by column).
	Path(p counterpath.Path) counterpath.Path
	// Instances reports whether Instance renames any instance.
	Instances() bool
	// Instance returns the name written for an instance of object whose
	// full name (parent/name#n) is full.
	Instance(object, full string) string
}

// BinSource is what WriteBin writes from: the logs (one, or those that Merge
// merges), the Converter of the selection, and a function that opens
// another Converter of them (New or Merge) for a first pass.
type BinSource struct {
	Inputs []Input
	C      *Converter
	Open   func(Options) (*Converter, error)
}

// WriteBin writes relog's selection of the logs as a .blg log (perfcalc
// relog -f bin): the raw values of the counters and samples that opts'
// Counters, Begin, End and Every keep, as they are in the logs, so that
// relog computes from the output the values it computes from the logs. It
// returns the damage of an input (the samples before it are written) apart
// from other errors.
//
// One raw-record log is rewritten entry by entry (rewriteEntries): its
// header, log GUID and counter list entries, with the samples' sub-records
// as they were, but for the instances Counters leaves out; without a
// selection the output has the log's bytes but for the fields that say
// when and by what it was written (doc/FORMATS.md §5.1). Several logs, and
// logs of whole objects (Vista), are written column by column
// (writeColumns).
func WriteBin(w io.Writer, in BinSource, opts Options, ren Renamer) (damage, err error) {
	// A log rewritten entry by entry keeps its entries' names: names
	// translated (Options.Rename) or instances named by process
	// (identity.PID) are written column by column, as relog names them.
	if len(in.Inputs) == 1 && opts.Rename == nil && opts.Identity == identity.PDH {
		r, err := blg.NewReader(in.Inputs[0].R, in.Inputs[0].Size)
		if err != nil {
			return err, err
		}
		whole := false
		for _, ci := range r.Counters() {
			whole = whole || ci.Flags&0x10 != 0 || ci.Counter == "*"
		}
		if !whole {
			return rewriteEntries(w, r, in.C.Columns(), opts, ren)
		}
	}
	return writeColumns(w, in, opts, ren)
}

// ColumnEntry returns the counter-list entry that writes a column of the
// path p with counter c column by column (WriteBin, perfcalc watch -f
// bin): a wildcard entry where p has an instance, and the instance name
// its multi-instance records carry (parent/instance#index; nil without an
// instance).
func ColumnEntry(p *counterpath.Path, c engine.Counter) (blg.CounterInfo, []byte) {
	ci := blg.CounterInfo{Type: c.Type, TimeBase: c.TimeBase, DefaultScale: c.Scale, Object: p.Object, Counter: p.Counter}
	if p.Machine != "" {
		ci.Machine = `\\` + p.Machine
	}
	if !p.HasInstance {
		return ci, nil
	}
	ci.Flags, ci.Instance = 1, "*"
	var name []byte
	if p.Parent != "" {
		name = append(append(name, p.Parent...), '/')
	}
	name = append(name, p.Instance...)
	if p.Index > 0 {
		name = strconv.AppendInt(append(name, '#'), int64(p.Index), 10)
	}
	return ci, name
}

// keepSample is Options' selection of samples: the samples whose local
// time lies in [Begin, End], then one in Every of them.
func keepSample(o *Options, t int64, seen *int) bool {
	if o.Begin != 0 && t < o.Begin || o.End != 0 && t > o.End {
		return false
	}
	n := *seen
	*seen = n + 1
	return o.Every <= 1 || n%o.Every == 0
}

// instanceKey is a kept column of a wildcard entry: its entry and its
// instance's parts.
type instanceKey struct {
	entry        int
	parent, name string
	index        int
}

// rewriteEntries writes the samples of one raw-record log that opts keep,
// with the counter-list entries that have kept columns, and in a wildcard
// entry's sub-records the kept instances. Where an entry loses an instance
// in a sample, its instances are written under the names relog gives
// them (name#1 for a name's second occurrence in the sample), so that the
// output's columns are the kept ones.
func rewriteEntries(w io.Writer, r *blg.Reader, cols []Column, opts Options, ren Renamer) (damage, err error) {
	infos := r.Counters()
	kept := make([]bool, len(infos))
	insts := map[instanceKey]bool{}
	for i := range cols {
		col := &cols[i]
		kept[col.Entry] = true
		if infos[col.Entry].Wildcard() {
			insts[instanceKey{col.Entry, col.Parts.Parent, col.Parts.Instance, col.Parts.Index}] = true
		}
	}
	cfg := blg.ConfigOf(r)
	cfg.Counters = nil
	newIndex := make([]int, len(infos))
	for i := range infos {
		newIndex[i] = -1
		if kept[i] {
			newIndex[i] = len(cfg.Counters)
			cfg.Counters = append(cfg.Counters, infos[i])
			if ren != nil {
				ren.Counter(&cfg.Counters[len(cfg.Counters)-1])
			}
		}
	}
	if ren != nil {
		ren.Header(&cfg.Header)
	}
	bw, err := blg.NewWriter(w, cfg)
	if err != nil {
		return nil, err
	}
	var (
		vals    []blg.Value
		numbers []string // the instance names of one entry's values in this sample, numbered
		met     = map[string]bool{}
		seen    int
	)
	hashed := ren != nil && ren.Instances()
	// No selection of counters and no instance to rename: every sample as
	// it was read.
	all := len(opts.Counters) == 0 && !hashed
	for r.Next() {
		s := r.Sample()
		if !keepSample(&opts, s.TimeStamp, &seen) {
			continue
		}
		if all {
			if err := bw.WriteSample(s.TimeStamp, s.Values); err != nil {
				return nil, err
			}
			continue
		}
		vals = vals[:0]
		for i := 0; i < len(s.Values); {
			entry := s.Values[i].Counter
			end := i + 1
			for end < len(s.Values) && s.Values[end].Counter == entry {
				end++
			}
			group := s.Values[i:end]
			i = end
			if entry < 0 || entry >= len(infos) || !kept[entry] {
				continue
			}
			if !infos[entry].Wildcard() {
				vals = append(vals, group...)
				for k := len(vals) - len(group); k < len(vals); k++ {
					vals[k].Counter = newIndex[entry]
				}
				continue
			}
			numbers = numberInstances(numbers[:0], group, met)
			every := true
			for k := range group {
				p, n, x := counterpath.SplitInstance(numbers[k])
				every = every && insts[instanceKey{entry, p, n, x}]
			}
			for k := range group {
				p, n, x := counterpath.SplitInstance(numbers[k])
				if !insts[instanceKey{entry, p, n, x}] {
					continue
				}
				v := group[k]
				v.Counter = newIndex[entry]
				if !every {
					v.Instance = []byte(numbers[k]) // the name relog gave it
				}
				if hashed {
					v.Instance = []byte(ren.Instance(infos[entry].Object, string(v.Instance)))
				}
				vals = append(vals, v)
			}
		}
		if err := bw.WriteSample(s.TimeStamp, vals); err != nil {
			return nil, err
		}
	}
	if err := r.Err(); err != nil {
		if cerr := bw.Close(r.Header().EndTime); cerr != nil {
			return nil, cerr
		}
		return err, err
	}
	return nil, bw.Close(r.Header().EndTime)
}

// numberInstances appends the names relog gives the instances of one
// wildcard entry's values in one sample: a name met a second time becomes
// name#1, then name#2, … (relog's instance numbering). met is scratch
// space.
func numberInstances(dst []string, group []blg.Value, met map[string]bool) []string {
	clear(met)
	for _, v := range group {
		name := string(v.Instance)
		if met[name] {
			base := name
			for n := 1; met[name]; n++ {
				name = base + "#" + strconv.Itoa(n)
			}
		}
		met[name] = true
		dst = append(dst, name)
	}
	return dst
}

// writeColumns writes relog's rows as a log of one counter-list entry per
// column: a column of an instance is a wildcard entry (\\M\Object(*)\C)
// whose sub-record holds that instance alone, or nothing where the row
// lacks it; a column without an instance is a single counter, written as a
// multi-instance sub-record without items where the row lacks it. Each
// column's type, time base and scale are those of its first value, read
// by a first pass over the rows (a column whose time base changes later is
// refused). The header is the first log's.
func writeColumns(w io.Writer, in BinSource, opts Options, ren Renamer) (damage, err error) {
	cols := in.C.Columns()
	counters := make([]engine.Counter, len(cols))
	have := make([]bool, len(cols))
	pre, err := in.Open(opts)
	if err != nil {
		return nil, err
	}
	for left := len(cols); left > 0 && pre.Next(); {
		for i, cell := range pre.Row().Cells {
			if cell.Present && !have[i] {
				counters[i], have[i] = cell.Counter, true
				left--
			}
		}
	}
	cfg := blg.WriterConfig{Header: *in.C.Header()}
	if r, err := blg.NewReader(in.Inputs[0].R, in.Inputs[0].Size); err == nil {
		cfg.LogGUID = blg.ConfigOf(r).LogGUID
	}
	if ren != nil {
		ren.Header(&cfg.Header)
	}
	names := make([][]byte, len(cols))
	for i := range cols {
		p := &cols[i].Parts
		if ren != nil {
			rp := ren.Path(*p)
			p = &rp
		}
		counter := counters[i]
		if !have[i] {
			counter.Type = cols[i].Type
		}
		ci, name := ColumnEntry(p, counter)
		names[i] = name
		cfg.Counters = append(cfg.Counters, ci)
	}
	bw, err := blg.NewWriter(w, cfg)
	if err != nil {
		return nil, err
	}
	c := in.C
	var vals []blg.Value
	for c.Next() {
		row := c.Row()
		vals = vals[:0]
		for i := range row.Cells {
			cell := &row.Cells[i]
			if !cell.Present {
				continue
			}
			if cell.Counter != counters[i] {
				return nil, errors.New(cols[i].Path + ": its type, scale or time base changes in the sample of " + string(logtext.AppendTime(nil, row.Time)) + ", which one counter-list entry cannot hold")
			}
			vals = append(vals, blg.Value{Counter: i, Instance: names[i], Raw: cell.Raw})
		}
		if err := bw.WriteSample(row.Time, vals); err != nil {
			return nil, err
		}
	}
	end := c.Header().EndTime
	if err := c.Err(); err != nil {
		if cerr := bw.Close(end); cerr != nil {
			return nil, cerr
		}
		return err, err
	}
	return nil, bw.Close(end)
}
