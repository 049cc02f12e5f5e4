package collect

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/query"
)

// PDHSource is PDH's query interface, for the raw values: OpenPDH returns
// the live one on Windows.
type PDHSource interface {
	// Expand returns the counter paths that path names when its counter
	// has a wildcard, keeping the instance wildcards
	// (PdhExpandWildCardPath with PDH_NOEXPANDINSTANCES).
	Expand(path string) ([]string, error)
	// Add adds the counter of an English path (PdhAddEnglishCounter) to
	// the query and describes it (PdhGetCounterInfo,
	// PdhGetCounterTimeBase).
	Add(path string) (PDHCounter, error)
	// Collect collects a sample of every counter added
	// (PdhCollectQueryData).
	Collect() error
	// Raw appends the counter's raw values from the last collection to
	// dst: one item per instance for a path with an instance wildcard
	// (PdhGetRawCounterArray), else one item without a name
	// (PdhGetRawCounterValue).
	Raw(id int, dst []PDHItem) ([]PDHItem, error)
	// Close closes the query (PdhCloseQuery).
	Close() error
}

// PDHCounter describes a counter that PDHSource.Add added.
type PDHCounter struct {
	ID           int                // the source's number for Raw
	FullPath     string             // PDH_COUNTER_INFO.szFullPath, \\MACHINE\Object(instance)\Counter
	Type         engine.CounterType // PDH_COUNTER_INFO.dwType
	DefaultScale int32              // PDH_COUNTER_INFO.lDefaultScale
	TimeBase     int64              // PdhGetCounterTimeBase (0 when the type has none)
}

// PDHItem is one raw value of a counter: PDH_RAW_COUNTER_ITEM.
type PDHItem struct {
	Instance string // szName; "" for a counter read with PdhGetRawCounterValue
	Raw      engine.RawCounter
}

// NewPDH returns a Collector of src's counters: every path of cfg.Paths,
// a counter wildcard expanded now (instance wildcards are kept and
// expanded at each sample, so that instances may come and go).
func NewPDH(src PDHSource, cfg Config) (*Collector, error) {
	if len(cfg.Paths) == 0 {
		src.Close()
		return nil, errors.New("collect: the PDH source needs counter paths")
	}
	b := &pdhBackend{src: src, cfg: cfg}
	for _, p := range cfg.Paths {
		paths := []string{p.String()}
		if strings.Contains(p.Counter, "*") {
			var err error
			if paths, err = src.Expand(p.String()); err != nil {
				src.Close()
				return nil, errors.New("collect: " + p.String() + ": " + err.Error())
			}
		}
		for _, s := range paths {
			info, err := src.Add(s)
			if err != nil {
				src.Close()
				return nil, errors.New("collect: " + s + ": " + err.Error())
			}
			full, err := counterpath.Parse(info.FullPath)
			if err != nil {
				full, _ = counterpath.Parse(s)
			}
			b.counters = append(b.counters, &pdhCounter{info: info, path: full, wild: hasInstanceWildcard(s)})
		}
	}
	return newCollector(b, cfg)
}

// pdhBackend collects from a PDHSource and computes each raw value with
// engine.Compute, pairing instances by name as package query does.
type pdhBackend struct {
	src      PDHSource
	cfg      Config
	counters []*pdhCounter
	pathBuf  []byte
	keyBuf   []byte
}

// pdhCounter is one added counter's state.
type pdhCounter struct {
	info  PDHCounter
	path  counterpath.Path // the full path, whose instance each item replaces
	wild  bool
	items []PDHItem
	names []pdhName
	olds  []oldRaw                     // per item: the older sample it was computed with
	prev  map[string]engine.RawCounter // by instance key, last sample
	cur   map[string]engine.RawCounter
	ok    bool // the last sample succeeded
}

// oldRaw is the older sample of a computation, when there was one.
type oldRaw struct {
	raw engine.RawCounter
	ok  bool
}

// pdhName is an item's instance: parent, name and occurrence.
type pdhName struct {
	parent, name string
	index        int
}

func (b *pdhBackend) collect(s *Sample) error {
	b.pathBuf = b.pathBuf[:0]
	if err := b.src.Collect(); err != nil {
		return err
	}
	for _, c := range b.counters {
		var err error
		c.items, err = b.src.Raw(c.info.ID, c.items[:0])
		if err != nil {
			s.Errors = append(s.Errors, &ObjectError{Object: c.info.FullPath, Err: err})
			c.ok = false
			continue
		}
		b.compute(s, c)
	}
	return nil
}

// compute appends one value per item of c.
func (b *pdhBackend) compute(s *Sample, c *pdhCounter) {
	c.names = nameItems(c.names[:0], c.items, c.wild)
	if c.cur == nil {
		c.cur = map[string]engine.RawCounter{}
	}
	clear(c.cur)
	c.olds = grow(c.olds, len(c.items))
	for i := range c.items {
		it, nm := &c.items[i], &c.names[i]
		b.keyBuf = appendInstanceKey(b.keyBuf[:0], nm)
		in := engine.Input{
			Counter: engine.Counter{Type: c.info.Type, Scale: c.info.DefaultScale, TimeBase: c.info.TimeBase},
			New:     it.Raw,
		}
		if c.ok {
			in.Old, in.HasOld = c.prev[string(b.keyBuf)]
		}
		c.cur[string(b.keyBuf)] = it.Raw
		c.olds[i] = oldRaw{in.Old, in.HasOld}
		r := engine.Compute(&in, b.cfg.Options)
		p := c.path
		if c.wild {
			p.HasInstance, p.Parent, p.Instance, p.Index = true, nm.parent, nm.name, nm.index
		}
		start := len(b.pathBuf)
		b.pathBuf = p.AppendTo(b.pathBuf)
		s.Values = append(s.Values, query.Value{
			Path: b.pathBuf[start:len(b.pathBuf):len(b.pathBuf)], Parts: p, Type: c.info.Type, Scale: c.info.DefaultScale,
			Value: r.Value, Status: r.Status, HasOld: in.HasOld, Raw: it.Raw,
		})
		s.TimeBases = append(s.TimeBases, c.info.TimeBase)
	}
	c.prev, c.cur = c.cur, c.prev
	c.ok = true
}

// nameItems names the items of one counter as PDH names instances in
// paths: "parent/name" split at the first "/", and duplicates of the
// same full name (compared case-insensitively) numbered #1, #2, … in
// order.
func nameItems(dst []pdhName, items []PDHItem, wild bool) []pdhName {
	seen := map[string]int{}
	for i := range items {
		var nm pdhName
		if wild {
			nm.name = items[i].Instance
			if j := strings.IndexByte(nm.name, '/'); j > 0 {
				nm.parent, nm.name = nm.name[:j], nm.name[j+1:]
			}
			key := strings.ToLower(nm.parent + "/" + nm.name)
			nm.index = seen[key]
			seen[key]++
		}
		dst = append(dst, nm)
	}
	return dst
}

// appendInstanceKey appends the pairing key of an instance.
func appendInstanceKey(dst []byte, nm *pdhName) []byte {
	dst = append(dst, strings.ToLower(nm.parent)...)
	dst = append(dst, '/')
	dst = append(dst, strings.ToLower(nm.name)...)
	dst = append(dst, 0)
	return strconv.AppendInt(dst, int64(nm.index), 10)
}

// save writes the sample as perfcalc calc --batch requests
// (pdh-NNNNNN.jsonl, one JSON line per value) and their paths, line by
// line (pdh-NNNNNN.paths), so that "perfcalc calc --batch <
// pdh-NNNNNN.jsonl" recomputes every value. Values whose raw data PDH
// marked bad (a CStatus other than 0 or 1: InvalidData, whatever the
// numbers) and values of a type winperf.h does not define (UnknownType)
// are left out, since a calc request carries neither.
func (b *pdhBackend) save(dir string, seq int) error {
	var reqs, paths []byte
	for _, c := range b.counters {
		if !c.ok {
			continue
		}
		for i := range c.items {
			it, nm := &c.items[i], &c.names[i]
			if !goodStatus(it.Raw.CStatus) || (c.olds[i].ok && !goodStatus(c.olds[i].raw.CStatus)) || !c.info.Type.Known() {
				continue // InvalidData or UnknownType whatever the numbers: calc carries neither
			}
			p := c.path
			if c.wild {
				p.HasInstance, p.Parent, p.Instance, p.Index = true, nm.parent, nm.name, nm.index
			}
			paths = append(p.AppendTo(paths), '\n')
			reqs = append(reqs, `{"type":"`...)
			reqs = append(reqs, c.info.Type.String()...)
			reqs = append(reqs, '"')
			if o := c.olds[i]; o.ok {
				reqs = appendRaw(append(reqs, `,"old":`...), o.raw)
			}
			reqs = appendRaw(append(reqs, `,"new":`...), it.Raw)
			if c.info.TimeBase > 0 {
				reqs = strconv.AppendInt(append(reqs, `,"timebase":`...), c.info.TimeBase, 10)
			}
			if b.cfg.Options&engine.Scale != 0 {
				// The scale the engine used: it clamps DefaultScale to −10..10,
				// the range calc takes.
				reqs = strconv.AppendInt(append(reqs, `,"scale":`...), int64(min(max(c.info.DefaultScale, -10), 10)), 10)
			}
			reqs = appendOptions(reqs, b.cfg.Options)
			reqs = append(reqs, "}\n"...)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, seqName("pdh-", seq, ".jsonl")), reqs, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, seqName("pdh-", seq, ".paths")), paths, 0o644)
}

// goodStatus reports whether a PDH_CSTATUS lets the engine compute.
func goodStatus(s uint32) bool {
	return s == engine.CStatusValidData || s == engine.CStatusNewData
}

// appendRaw appends [FirstValue, SecondValue, MultiCount] as calc reads
// it.
func appendRaw(dst []byte, r engine.RawCounter) []byte {
	dst = append(dst, '[')
	dst = strconv.AppendUint(dst, r.FirstValue, 10)
	dst = append(dst, ',')
	dst = strconv.AppendUint(dst, r.SecondValue, 10)
	dst = append(dst, ',')
	dst = strconv.AppendUint(dst, uint64(r.MultiCount), 10)
	return append(dst, ']')
}

// appendOptions appends calc's "options" member for the options other
// than Scale (which "scale" turns on).
func appendOptions(dst []byte, o engine.Options) []byte {
	var names []string
	if o&engine.Cap100 != 0 {
		names = append(names, `"cap100"`)
	}
	if o&engine.Times1000 != 0 {
		names = append(names, `"1000"`)
	}
	if o&engine.Wrap32 != 0 {
		names = append(names, `"wrap32"`)
	}
	if len(names) == 0 {
		return dst
	}
	return append(append(append(dst, `,"options":[`...), strings.Join(names, ",")...), ']')
}

func (b *pdhBackend) close() error { return b.src.Close() }
