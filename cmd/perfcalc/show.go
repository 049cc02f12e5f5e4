package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/engine/termtext"
)

const showUsage = `Usage:
  perfcalc show BLOB [--names TABLE] [--json]
  perfcalc show BLOB --reginfo FILE [--strings FILE] [--json]

Shows what a capture holds. For a V1 blob: the machine, the time stamps, and
each object with its counters (name, index, type, size, scale, detail level)
and its instances (PDH name, parent). For a V2 PerfQueryCounterData result:
the time stamps and each block with its counters and instances (--reginfo
adds the counters' types). Without --names, objects and counters show their
index only. --json writes the same as one JSON document.

Any file may be "-", standard input (one of them at most). A capture over
256 MiB, a name table or registration over 64 MiB is refused from its size,
unread.

` + namesHelp + `
Flags:
`

func init() {
	register(command{"show", "show what a capture holds: machine, times, objects, counters, instances", runShow})
}

// showCapture is what show prints, and its JSON form.
type showCapture struct {
	Format          string       `json:"format"`
	Machine         string       `json:"machine,omitempty"`
	SystemTime      string       `json:"systemTime"`
	PerfTime        int64        `json:"perfTime"`
	PerfFreq        int64        `json:"perfFreq"`
	PerfTime100nSec int64        `json:"perfTime100nSec"`
	UTC             string       `json:"utc"`
	CounterSet      string       `json:"counterSet,omitempty"`
	Objects         []showObject `json:"objects"`
	// NamesUnknown lists, with --names-lang, the names not translated.
	NamesUnknown []string `json:"namesUnknown,omitempty"`
}

type showObject struct {
	Index          uint32         `json:"index,omitempty"` // V1: ObjectNameTitleIndex
	Block          *int           `json:"block,omitempty"` // V2: the block's position
	BlockType      string         `json:"blockType,omitempty"`
	Status         uint32         `json:"status,omitempty"`
	Name           string         `json:"name,omitempty"`
	DetailLevel    uint32         `json:"detailLevel,omitempty"`
	NumInstances   int32          `json:"numInstances"`
	DefaultCounter int32          `json:"defaultCounter,omitempty"`
	CodePage       uint32         `json:"codePage,omitempty"`
	PerfTime       int64          `json:"perfTime,omitempty"`
	PerfFreq       int64          `json:"perfFreq,omitempty"`
	Counters       []showCounter  `json:"counters"`
	Instances      []showInstance `json:"instances"`
}

type showCounter struct {
	Index  uint32 `json:"index"` // V1: CounterNameTitleIndex; V2: CounterId
	Name   string `json:"name,omitempty"`
	Type   string `json:"type"`
	Size   uint32 `json:"size,omitempty"`
	Offset uint32 `json:"offset,omitempty"`
	Scale  int32  `json:"scale"`
	Detail uint32 `json:"detailLevel"`
}

type showInstance struct {
	Name       string `json:"name"`                   // the PDH name, parent/name#n
	ID         *int64 `json:"id,omitempty"`           // V1 UniqueID (when not -1), V2 InstanceId
	ParentObj  uint32 `json:"parentObject,omitempty"` // V1 ParentObjectTitleIndex
	ParentInst uint32 `json:"parentInstance,omitempty"`
}

func runShow(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	var src sourceFlags
	src.register(fs)
	asJSON := fs.Bool("json", false, "write one JSON document")
	var names namesFlags
	names.register(fs)
	pos, status, ok := parseCommandArgs(fs, showUsage, args, stdout, stderr)
	if !ok {
		return status
	}
	if err := names.check(); err != nil {
		return failCommand(stderr, "show", err)
	}
	if len(pos) != 1 {
		return failCommand(stderr, "show", &usageError{"want one capture (see perfcalc show -h)"})
	}
	in := &stdinOnce{r: stdin}
	data, kind, err := readCapture(pos[0], "BLOB", in)
	if err != nil {
		return failCommand(stderr, "show", err)
	}
	// show reads V2 results without their registration too: the counters
	// then have ids but no types.
	cfg, err := src.config(kind, false, in)
	if err != nil {
		return failCommand(stderr, "show", err)
	}
	var c showCapture
	if kind == kindV1 {
		c, err = describeV1(data, cfg.Names)
	} else {
		c, err = describeV2(data, &cfg)
	}
	if err != nil {
		return failCommand(stderr, "show", fmt.Errorf("%s: %v", pos[0], err))
	}
	nm, err := names.build(captureTables(src.names), in)
	if err != nil {
		return failCommand(stderr, "show", err)
	}
	if nm != nil {
		nm.show(&c)
		c.NamesUnknown = nm.unknown()
		defer nm.finish(stderr, "show", names.report)
	}
	w := bufio.NewWriter(stdout)
	if *asJSON {
		b, err := json.MarshalIndent(&c, "", "  ")
		if err != nil {
			return failCommand(stderr, "show", err)
		}
		w.Write(append(b, '\n'))
	} else {
		writeShowText(w, &c)
	}
	if err := w.Flush(); err != nil {
		return failCommand(stderr, "show", err)
	}
	return exitOK
}

// tableName returns the name of a title index, or "" without one.
func tableName(t *nametable.Table, index uint32) string {
	if t == nil {
		return ""
	}
	if s, ok := t.Lookup(index); ok {
		return s.String()
	}
	return ""
}

func formatSystemTime(year, month, day, hour, min, sec, ms uint16) string {
	b := make([]byte, 0, 24)
	b = appendPadded(b, int(year), 4)
	b = append(b, '-')
	b = appendPadded(b, int(month), 2)
	b = append(b, '-')
	b = appendPadded(b, int(day), 2)
	b = append(b, ' ')
	b = appendPadded(b, int(hour), 2)
	b = append(b, ':')
	b = appendPadded(b, int(min), 2)
	b = append(b, ':')
	b = appendPadded(b, int(sec), 2)
	b = append(b, '.')
	b = appendPadded(b, int(ms), 3)
	return string(b)
}

func appendPadded(b []byte, v, width int) []byte {
	s := strconv.Itoa(v)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// fileTimeText returns a FILETIME as UTC in ISO 8601 with 100 ns digits,
// or "" when it is out of range.
func fileTimeText(ft int64) string {
	if ft <= 0 {
		return ""
	}
	return fileTime(ft).Format("2006-01-02T15:04:05.0000000Z")
}

func describeV1(data []byte, names *nametable.Table) (showCapture, error) {
	blk, err := perfdata.Parse(data)
	if err != nil {
		return showCapture{}, err
	}
	st := blk.SystemTime
	c := showCapture{
		Format:     "V1 PERF_DATA_BLOCK " + strconv.Itoa(int(blk.Version)) + "." + strconv.Itoa(int(blk.Revision)),
		Machine:    blk.SystemName(),
		SystemTime: formatSystemTime(st.Year, st.Month, st.Day, st.Hour, st.Minute, st.Second, st.Milliseconds),
		PerfTime:   blk.PerfTime, PerfFreq: blk.PerfFreq, PerfTime100nSec: blk.PerfTime100nSec,
		UTC:     fileTimeText(blk.PerfTime100nSec),
		Objects: []showObject{},
	}
	var nm perfdata.Namer
	objs := blk.Objects()
	for objs.Next() {
		o := objs.Object()
		so := showObject{
			Index: o.ObjectNameTitleIndex, Name: tableName(names, o.ObjectNameTitleIndex),
			DetailLevel: o.DetailLevel, NumInstances: o.NumInstances, DefaultCounter: o.DefaultCounter,
			CodePage: o.CodePage, PerfTime: o.PerfTime, PerfFreq: o.PerfFreq,
			Counters: []showCounter{}, Instances: []showInstance{},
		}
		cs := o.Counters()
		for cs.Next() {
			d := cs.Counter()
			so.Counters = append(so.Counters, showCounter{
				Index: d.CounterNameTitleIndex, Name: tableName(names, d.CounterNameTitleIndex),
				Type: d.CounterType.String(), Size: d.CounterSize, Offset: d.CounterOffset,
				Scale: d.DefaultScale, Detail: d.DetailLevel,
			})
		}
		if err := cs.Err(); err != nil {
			return c, err
		}
		if o.NumInstances > 0 {
			pdh, err := nm.Names(&blk, o)
			if err != nil {
				return c, err
			}
			is := o.Instances()
			for k := 0; is.Next(); k++ {
				in := is.Instance()
				si := showInstance{ParentObj: in.ParentObjectTitleIndex, ParentInst: in.ParentObjectInstance}
				if k < len(pdh) {
					si.Name = pdh[k].String()
				}
				if in.UniqueID != perfdata.NoUniqueID {
					id := int64(in.UniqueID)
					si.ID = &id
				}
				so.Instances = append(so.Instances, si)
			}
			if err := is.Err(); err != nil {
				return c, err
			}
		}
		c.Objects = append(c.Objects, so)
	}
	if err := objs.Err(); err != nil {
		return c, err
	}
	return c, nil
}

func describeV2(data []byte, cfg *query.Config) (showCapture, error) {
	var p perflibv2.Parser
	h, err := p.Start(data)
	if err != nil {
		return showCapture{}, err
	}
	st := h.SystemTime
	c := showCapture{
		Format:     "V2 PerfQueryCounterData",
		SystemTime: formatSystemTime(st.Year, st.Month, st.Day, st.Hour, st.Minute, st.Second, st.Milliseconds),
		PerfTime:   h.PerfTimeStamp, PerfFreq: h.PerfFreq, PerfTime100nSec: h.PerfTime100NSec,
		UTC:     fileTimeText(h.PerfTime100NSec),
		Objects: []showObject{},
	}
	if cfg.RegInfo != nil {
		c.CounterSet = cfg.CounterSet
		if c.CounterSet == "" {
			c.CounterSet = cfg.RegInfo.Header.CounterSetGUID.String()
		}
	}
	for p.Next() {
		b := p.Block()
		idx := b.Index
		so := showObject{Block: &idx, BlockType: b.Type.String(), Status: b.Status,
			NumInstances: int32(b.NumRows()), Counters: []showCounter{}, Instances: []showInstance{}}
		var ids []uint32
		switch {
		case b.HasCounterIDs():
			for k := range b.NumCounters() {
				id, _ := b.CounterID(k)
				ids = append(ids, id)
			}
		case b.Index < len(cfg.IDs):
			ids = append(ids, cfg.IDs[b.Index])
		}
		for _, id := range ids {
			sc := showCounter{Index: id, Type: "?"}
			if cfg.RegInfo != nil {
				if ci, ok := cfg.RegInfo.Lookup(id); ok {
					sc.Type, sc.Scale, sc.Detail = ci.Type.String(), ci.DefaultScale, ci.DetailLevel
				}
			}
			if cfg.Strings != nil {
				if t, ok := cfg.Strings.Lookup(id); ok {
					sc.Name = t.String()
				}
			}
			so.Counters = append(so.Counters, sc)
		}
		if b.HasInstances() {
			rs := b.Rows()
			for rs.Next() {
				r := rs.Row()
				id := int64(r.InstanceID)
				so.Instances = append(so.Instances, showInstance{Name: r.Name.String(), ID: &id})
			}
		}
		c.Objects = append(c.Objects, so)
	}
	if err := p.Err(); err != nil {
		return c, err
	}
	return c, nil
}

// alignedTable writes rows of cells in columns separated by two spaces,
// each as wide as its widest cell (in runes); trailing spaces are cut.
type alignedTable struct {
	indent string
	rows   [][]string
}

// add adds a row; names in its cells come out escaped
// (termtext.AppendVisible).
func (t *alignedTable) add(cells ...string) {
	for i, c := range cells {
		cells[i] = termtext.Visible(c)
	}
	t.rows = append(t.rows, cells)
}

func (t *alignedTable) write(w io.Writer) {
	var widths []int
	for _, r := range t.rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	var b []byte
	for _, r := range t.rows {
		b = append(b[:0], t.indent...)
		for i, c := range r {
			if i > 0 {
				b = append(b, ' ', ' ')
			}
			b = append(b, c...)
			b = appendSpaces(b, widths[i]-utf8.RuneCountInString(c))
		}
		b = []byte(strings.TrimRight(string(b), " "))
		b = append(b, '\n')
		w.Write(b)
	}
}

func writeShowText(w io.Writer, c *showCapture) {
	head := alignedTable{}
	head.add("format", c.Format)
	if c.Machine != "" {
		head.add("machine", c.Machine)
	}
	if c.CounterSet != "" {
		head.add("counterset", c.CounterSet)
	}
	head.add("system time", c.SystemTime)
	if c.UTC != "" {
		head.add("PerfTime100nSec", strconv.FormatInt(c.PerfTime100nSec, 10)+" ("+c.UTC+")")
	} else {
		head.add("PerfTime100nSec", strconv.FormatInt(c.PerfTime100nSec, 10))
	}
	head.add("PerfTime", strconv.FormatInt(c.PerfTime, 10)+" at "+strconv.FormatInt(c.PerfFreq, 10)+" per second")
	if c.Objects != nil && c.Format[:2] == "V1" {
		head.add("objects", strconv.Itoa(len(c.Objects)))
	} else {
		head.add("blocks", strconv.Itoa(len(c.Objects)))
	}
	head.write(w)
	for i := range c.Objects {
		o := &c.Objects[i]
		io.WriteString(w, "\n")
		var line string
		if o.Block != nil {
			line = "block " + strconv.Itoa(*o.Block) + ": " + o.BlockType
			if o.Status != 0 {
				line += ", status " + strconv.FormatUint(uint64(o.Status), 10)
			}
			line += ", " + strconv.Itoa(len(o.Counters)) + " counters, " + strconv.Itoa(int(o.NumInstances)) + " rows"
		} else {
			line = "object " + strconv.FormatUint(uint64(o.Index), 10)
			if o.Name != "" {
				line += " " + o.Name
			}
			line += ": " + strconv.Itoa(len(o.Counters)) + " counters, "
			switch o.NumInstances {
			case perfdata.NoInstances:
				line += "no instances (PERF_NO_INSTANCES)"
			case perfdata.MetadataMultipleInstances:
				line += "metadata only (PERF_METADATA_MULTIPLE_INSTANCES)"
			case perfdata.MetadataNoInstances:
				line += "metadata only (PERF_METADATA_NO_INSTANCES)"
			default:
				line += strconv.Itoa(int(o.NumInstances)) + " instances"
			}
			line += ", detail " + strconv.FormatUint(uint64(o.DetailLevel), 10)
			if o.DefaultCounter >= 0 {
				line += ", default counter " + strconv.Itoa(int(o.DefaultCounter))
			}
			if o.CodePage != 0 {
				line += ", code page " + strconv.FormatUint(uint64(o.CodePage), 10)
			}
			if o.PerfFreq != 0 {
				line += ", PerfTime " + strconv.FormatInt(o.PerfTime, 10) + " at " + strconv.FormatInt(o.PerfFreq, 10) + " per second"
			}
		}
		io.WriteString(w, termtext.Visible(line)+"\n")
		if len(o.Counters) > 0 {
			t := alignedTable{indent: "  "}
			if o.Block != nil {
				t.add("ID", "NAME", "TYPE", "SCALE", "DETAIL")
				for _, ct := range o.Counters {
					t.add(strconv.FormatUint(uint64(ct.Index), 10), ct.Name, ct.Type, strconv.Itoa(int(ct.Scale)), strconv.FormatUint(uint64(ct.Detail), 10))
				}
			} else {
				t.add("INDEX", "NAME", "TYPE", "SIZE", "OFFSET", "SCALE", "DETAIL")
				for _, ct := range o.Counters {
					t.add(strconv.FormatUint(uint64(ct.Index), 10), ct.Name, ct.Type, strconv.FormatUint(uint64(ct.Size), 10),
						strconv.FormatUint(uint64(ct.Offset), 10), strconv.Itoa(int(ct.Scale)), strconv.FormatUint(uint64(ct.Detail), 10))
				}
			}
			t.write(w)
		}
		if len(o.Instances) > 0 {
			t := alignedTable{indent: "  "}
			if o.Block != nil {
				t.add("ROW", "ID", "INSTANCE")
				for k, in := range o.Instances {
					t.add(strconv.Itoa(k), strconv.FormatInt(*in.ID, 10), in.Name)
				}
			} else {
				t.add("POS", "INSTANCE", "PARENT")
				for k, in := range o.Instances {
					parent := ""
					if in.ParentObj != 0 {
						parent = "object " + strconv.FormatUint(uint64(in.ParentObj), 10) + ", instance " + strconv.FormatUint(uint64(in.ParentInst), 10)
					}
					name := in.Name
					if in.ID != nil {
						name += " (UniqueID " + strconv.FormatInt(*in.ID, 10) + ")"
					}
					t.add(strconv.Itoa(k), name, parent)
				}
			}
			t.write(w)
		}
	}
}
