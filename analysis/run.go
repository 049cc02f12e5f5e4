package analysis

import (
	"errors"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/perfcalc/perfcalc/analysis/objre"
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/relog"
)

// DefaultChartPoints is Report.ChartPoints: the most points of a chart.
const DefaultChartPoints = 600

// Run analyses the rows of c with the enabled analyses of set, reading the
// rows once (c must not have been read yet) with c.ReadRows: with two or
// more CPUs, the log is read and its values computed in goroutines of
// their own while Run takes the rows in order; the series' statistics are
// then computed on one goroutine per CPU (each sorting a copy of its
// series' values for the percentiles while it works on it).
//
// Each CounterLog datasource matches the log's columns whose object and
// counter equal its path's (case-insensitively, as PDH compares; the
// object by ObjectRegexp where set) and whose instance its instance names
// ("*", empty or none: every instance; otherwise case-insensitive
// equality with the full instance name, parent/name#n), less Exclude; the
// machine is ignored; of two columns of the same path (case-insensitive),
// the first is kept. An analysis one of whose CounterLog datasources
// matches nothing is skipped (Result.Skipped says which), and so is a
// disabled one. A Generated datasource (Formula) has one series per series
// of Left, joined with the series of Right of the same instance name (or
// with Right's only series); where Right's value is missing or the
// division's base is 0, the value is not valid and is left out, as is a
// result that is not finite.
//
// Values are rounded to the datasource's Round before statistics (compat:
// the statistics are rounded instead, as PAL does); time slices,
// statistics and alerts are those of doc/ANALYSIS.md §2–4, where §5
// lists what Options.PALCompat changes. No figure of the
// report is NaN or ±Inf: one that would be (an overflowing sum) is 0.
//
// # Memory
//
// Run keeps, per matched series (a column or a generated series with its
// rounding, shared by the analyses that use it), every valid value as a
// float64 (8 bytes per value: the exact percentiles, trimmed means and
// standard deviation need them all), one offset per slice (4 bytes; exact
// mode) and at most ChartPoints chart points (40 bytes each: 24,000 bytes
// a series; none with opts.NoCharts); the rows themselves are not kept. The number of slices is at
// most MaxSlices.
//
// The values go in chunks of DefaultChunk values (32 KiB) or fewer. With
// opts.Spill, full chunks stay in memory up to opts.Budget bytes
// (DefaultBudget) and the others are written to opts.Spill (8 bytes a
// value); without it, they all stay in memory. At the end, the series are
// shared among the CPUs (runtime.GOMAXPROCS): each gathers (reads back) a
// series' values into a buffer of its own, computes its statistics
// (sorting the values in place) and releases them before its next series.
// Memory is then about the budget, plus per series its chunk being filled
// (at most 32 KiB) and its chart and offsets, plus, per CPU, 8 bytes per
// value of the largest series while its statistics are computed. A failure of the
// spill is returned (a *SpillError), without a report.
//
// Run returns an error when the log has no rows, when opts.Interval is
// negative, or when the interval cuts the log into more than MaxSlices
// slices. When reading the rows stops at damage (c.Err), Run returns the
// report of the rows before it together with that error.
func Run(c *relog.Converter, set *Set, opts Options) (*Report, error) {
	if set == nil {
		set = &Set{}
	}
	if opts.Interval < 0 {
		return nil, errors.New("analysis: the interval must not be negative, not " + strconv.FormatInt(opts.Interval, 10))
	}
	n, begin, end := c.Samples()
	if n == 0 {
		if err := c.ScanErr(); err != nil {
			return nil, err
		}
		return nil, errors.New("analysis: the log has no samples")
	}
	interval := opts.Interval
	if interval == 0 {
		interval = autoInterval(begin, end)
	}
	tl, err := newTimeline(begin, end, interval, opts.PALCompat)
	if err != nil {
		return nil, err
	}
	_, bias := c.TimeZone()
	cols := c.Columns()
	r := &Report{
		Begin: begin, End: end, Bias: bias, Samples: n, Interval: interval,
		Set: set, PALCompat: opts.PALCompat, ChartPoints: DefaultChartPoints,
		Unsupported: append([]Unsupported(nil), set.Unsupported...),
	}
	if len(cols) > 0 {
		r.Machine = cols[0].Parts.Machine
	}
	p := newPlan(cols, set, r)
	p.useSpill(&opts)
	per := (n + r.ChartPoints - 1) / r.ChartPoints
	per = max(per, 1)
	rd := rowReader{p: p, tl: tl, vals: make([]float64, p.sources), valid: make([]bool, p.sources), per: per, compat: opts.PALCompat}
	readErr := c.ReadRows(rd.add)
	if rd.err != nil {
		return nil, rd.err
	}
	rows := rd.rows
	if rows == 0 {
		if readErr != nil {
			return nil, readErr
		}
		return nil, errors.New("analysis: the log has no samples")
	}
	if p.spill.err != nil {
		return nil, p.spill.err
	}
	r.Samples = rows // the rows read (the first reading's count, barring a change of the input)
	r.Slices = tl.finish()
	if err := p.finish(r, tl); err != nil {
		return nil, err
	}
	return r, readErr
}

// rowReader is Run's reading of the rows: the sources' values in the
// current row, and the rows read so far.
type rowReader struct {
	p      *plan
	tl     *timeline
	vals   []float64 // per source: its value in the row
	valid  []bool    // per source: whether it has one
	per    int       // rows per chart point
	compat bool
	rows   int   // the rows read
	err    error // the timeline's error, which stops the reading
}

// add takes in one row: the values of the columns read, the generated
// series, and the stores (relog.Converter.ReadRows' callback).
func (rd *rowReader) add(row *relog.ComputedRow) error {
	k, err := rd.tl.add(row.Time)
	if err != nil {
		rd.err = err
		return err
	}
	p, vals, valid := rd.p, rd.vals, rd.valid
	for _, col := range p.cols {
		valid[col] = false
		if col < len(row.Present) && row.Present[col] {
			if res := &row.Results[col]; res.Status == engine.Valid && !math.IsNaN(res.Value) && !math.IsInf(res.Value, 0) {
				vals[col], valid[col] = res.Value, true
			}
		}
	}
	for i := range p.gens {
		g := &p.gens[i]
		vals[g.id], valid[g.id] = g.eval(vals, valid)
	}
	for _, s := range p.stores {
		if valid[s.source] {
			s.store.add(rd.rows, row.Time, k, vals[s.source], rd.compat, rd.per)
		}
	}
	rd.rows++
	return nil
}

// sourced is a store fed from one source (a column, or a generated series).
type sourced struct {
	source int
	store  *store
	stats  []Stats
	all    Overall
}

// generator computes one generated series per row.
type generator struct {
	id          int // its source index
	left, right int // source indexes; right −1 for a constant
	f           *Formula
}

// eval returns the generator's value from the row's source values.
func (g *generator) eval(vals []float64, valid []bool) (float64, bool) {
	if !valid[g.left] || (g.right >= 0 && !valid[g.right]) {
		return 0, false
	}
	b := g.f.Constant
	if g.right >= 0 {
		b = vals[g.right]
	}
	return applyFormula(g.f, vals[g.left], b)
}

// applyFormula returns a op b × Scale (Scale 0 is 1), rounded to an
// integer with Integer; false where b is a zero divisor or the result is
// not finite.
func applyFormula(f *Formula, a, b float64) (float64, bool) {
	var v float64
	switch f.Op {
	case '+':
		v = a + b
	case '-':
		v = a - b
	case '*':
		v = a * b
	case '/':
		if b == 0 {
			return 0, false
		}
		v = a / b
	default:
		return 0, false
	}
	if f.Scale != 0 {
		v *= f.Scale
	}
	if f.Integer {
		v = math.RoundToEven(v)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// derived is a generated series computed per slice (Formula.PerSlice)
// from the slice means of its operands' series (sources with their
// datasources' rounding; right −1 for a constant).
type derived struct {
	id                    int
	f                     *Formula
	left, right           int
	leftRound, rightRound int
}

// member is one series of a planned datasource: its source, path and store.
type member struct {
	source int
	path   string
	parts  counterpath.Path
	store  int // index in plan.stores
}

// plannedDS is a datasource with its series.
type plannedDS struct {
	ds      *Datasource
	members []member
}

// plannedAnalysis is an analysis with its datasources' series, or why it
// was skipped.
type plannedAnalysis struct {
	a       *Analysis
	dss     []plannedDS
	skipped string
	idx     *dsIndex // a's datasources by name
}

// plan is what Run reads and computes, from the columns and the set.
type plan struct {
	cols     []int // the columns read
	sources  int   // columns + generated series
	gens     []generator
	derived  []derived
	stores   []*sourced
	byStore  map[int64]int // source·32 + round + 1 → index in stores
	analyses []plannedAnalysis
	needCol  []bool
	compat   bool
	spill    *spill
}

// fullInstance returns the full instance name of p: parent/name#n.
func fullInstance(p *counterpath.Path) string {
	s := p.Instance
	if p.Parent != "" {
		s = p.Parent + "/" + s
	}
	if p.Index > 0 {
		s += "#" + strconv.Itoa(p.Index)
	}
	return s
}

// matcher matches a CounterLog datasource against columns.
type matcher struct {
	ds  *Datasource
	re  *objre.Regexp
	all bool // every instance
	ins string
	// objects caches re's match of each object name: a log has few
	// objects and many columns.
	objects map[string]bool
}

func newMatcher(ds *Datasource) (*matcher, error) {
	m := &matcher{ds: ds}
	if ds.ObjectRegexp != "" {
		re, err := objre.Compile(ds.ObjectRegexp)
		if err != nil {
			return nil, err
		}
		m.re = re
		m.objects = map[string]bool{}
	}
	m.all = !ds.Path.HasInstance || ds.Path.Instance == "" || ds.Path.Instance == "*"
	if !m.all {
		m.ins = fullInstance(&ds.Path)
	}
	return m, nil
}

// matchObject reports whether the object name obj is the datasource's.
func (m *matcher) matchObject(obj string) bool {
	if m.re == nil {
		return strings.EqualFold(obj, m.ds.Path.Object)
	}
	hit, ok := m.objects[obj]
	if !ok {
		hit = m.re.MatchString(obj)
		m.objects[obj] = hit
	}
	return hit
}

func (m *matcher) match(col *relog.Column) bool {
	p := &col.Parts
	if !m.matchObject(p.Object) {
		return false
	}
	if !strings.EqualFold(p.Counter, m.ds.Path.Counter) {
		return false
	}
	full := ""
	if p.HasInstance {
		full = fullInstance(p)
	}
	if !m.all && !strings.EqualFold(full, m.ins) {
		return false
	}
	for _, x := range m.ds.Exclude {
		if p.HasInstance && (strings.EqualFold(x, full) || strings.EqualFold(x, p.Instance)) {
			return false
		}
	}
	return true
}

// objectColumns lists a log's columns by object name, so that a
// datasource is matched against each distinct object name once, then
// against the columns of the objects it matches only: a threshold file's
// datasources cost their number times the log's objects, not times its
// columns.
type objectColumns struct {
	names []string         // the distinct object names, in the columns' order
	cols  map[string][]int // each object's columns, in order
}

func newObjectColumns(cols []relog.Column) *objectColumns {
	o := &objectColumns{cols: map[string][]int{}}
	for i := range cols {
		obj := cols[i].Parts.Object
		if _, ok := o.cols[obj]; !ok {
			o.names = append(o.names, obj)
		}
		o.cols[obj] = append(o.cols[obj], i)
	}
	return o
}

// candidates returns the columns whose object m matches, in order.
func (o *objectColumns) candidates(m *matcher) []int {
	var out []int
	objects := 0
	for _, name := range o.names {
		if m.matchObject(name) {
			out = append(out, o.cols[name]...)
			objects++
		}
	}
	if objects > 1 {
		heapSort(len(out), func(i, j int) bool { return out[i] < out[j] }, func(i, j int) { out[i], out[j] = out[j], out[i] })
	}
	return out
}

// dsIndex finds an analysis' datasources by name (find), each in a map
// lookup: an analysis' thresholds cost their number, not times its
// datasources.
type dsIndex struct {
	a     *Analysis
	exact map[string]int // Name or Var: the first datasource of it
	fold  map[string]int // the same by FoldKey
}

func newDSIndex(a *Analysis) *dsIndex {
	x := &dsIndex{a: a, exact: make(map[string]int, 2*len(a.Datasources)), fold: make(map[string]int, 2*len(a.Datasources))}
	for i := range a.Datasources {
		d := &a.Datasources[i]
		for _, s := range []string{d.Name, d.Var} {
			if s == "" {
				continue
			}
			if _, ok := x.exact[s]; !ok {
				x.exact[s] = i
			}
			if _, ok := x.fold[foldKey(s)]; !ok {
				x.fold[foldKey(s)] = i
			}
		}
	}
	return x
}

// find returns the index of the datasource named name (by Name, then by
// Var, exactly then case-insensitively: the first datasource so named),
// or −1; "" names the primary datasource, or the first. The analysis may
// be a copy of the index's with the same datasources.
func (x *dsIndex) find(name string) int {
	if name == "" {
		name = x.a.Primary
		if name == "" {
			if len(x.a.Datasources) > 0 {
				return 0
			}
			return -1
		}
	}
	if i, ok := x.exact[name]; ok {
		return i
	}
	if i, ok := x.fold[foldKey(name)]; ok {
		return i
	}
	return -1
}

// newPlan matches the set's analyses against the columns.
func newPlan(cols []relog.Column, set *Set, r *Report) *plan {
	p := &plan{sources: len(cols), byStore: map[int64]int{}, needCol: make([]bool, len(cols)), compat: r.PALCompat}
	// Of two columns of the same path (case-insensitive), the first.
	first := make(map[string]bool, len(cols))
	dup := make([]bool, len(cols))
	for i := range cols {
		key := foldKey(cols[i].Path)
		dup[i] = first[key]
		first[key] = true
	}
	objects := newObjectColumns(cols)
	for ai := range set.Analyses {
		a := &set.Analyses[ai]
		pa := plannedAnalysis{a: a, dss: make([]plannedDS, len(a.Datasources)), idx: newDSIndex(a)}
		if !a.Enabled {
			pa.skipped = "disabled"
			p.analyses = append(p.analyses, pa)
			continue
		}
		covered, coveredBy := coveredMachines(cols, objects, a.CoveredBy)
		for di := range a.Datasources {
			ds := &a.Datasources[di]
			pa.dss[di].ds = ds
			if ds.Kind != CounterLog {
				continue
			}
			m, err := newMatcher(ds)
			if err != nil {
				pa.skipped = "datasource " + ds.Name + ": " + err.Error()
				break
			}
			left := 0
			for _, ci := range objects.candidates(m) {
				if !dup[ci] && m.match(&cols[ci]) {
					if covered[foldKey(cols[ci].Parts.Machine)] {
						left++
						continue
					}
					pa.dss[di].members = append(pa.dss[di].members, member{source: ci, path: cols[ci].Path, parts: cols[ci].Parts, store: -1})
				}
			}
			if len(pa.dss[di].members) == 0 && left > 0 {
				pa.skipped = "the log has " + coveredBy + ", which another analysis reads"
				break
			}
			if len(pa.dss[di].members) == 0 {
				pa.skipped = "no counter of the log matches " + ds.Name
				break
			}
		}
		if pa.skipped == "" {
			p.generate(a, &pa, r)
		}
		if pa.skipped != "" {
			pa.dss = nil
		} else {
			for di := range pa.dss {
				for mi := range pa.dss[di].members {
					m := &pa.dss[di].members[mi]
					m.store = p.storeOf(m.source, pa.dss[di].ds.Round)
				}
			}
		}
		p.analyses = append(p.analyses, pa)
	}
	for i, need := range p.needCol {
		if need {
			p.cols = append(p.cols, i)
		}
	}
	return p
}

// coveredMachines returns the machines (foldKey) that have a column
// matching one of paths (Analysis.CoveredBy), and the first such path.
func coveredMachines(cols []relog.Column, objects *objectColumns, paths []counterpath.Path) (map[string]bool, string) {
	if len(paths) == 0 {
		return nil, ""
	}
	var machines map[string]bool
	first := ""
	for i := range paths {
		m, err := newMatcher(&Datasource{Path: paths[i]})
		if err != nil {
			continue
		}
		for _, ci := range objects.candidates(m) {
			if m.match(&cols[ci]) {
				if machines == nil {
					machines, first = map[string]bool{}, paths[i].String()
				}
				machines[foldKey(cols[ci].Parts.Machine)] = true
			}
		}
	}
	return machines, first
}

// storeOf returns the store of a source with a rounding, making it.
func (p *plan) storeOf(source, round int) int {
	round = min(max(round, -1), 30) // roundTo rounds to at most 15 decimals
	key := int64(source)*32 + int64(round) + 1
	if i, ok := p.byStore[key]; ok {
		return i
	}
	if source < len(p.needCol) {
		p.needCol[source] = true
	}
	p.stores = append(p.stores, &sourced{source: source, store: newStore(round)})
	p.byStore[key] = len(p.stores) - 1
	return len(p.stores) - 1
}

// generate plans an analysis' Generated datasources, in the order their
// operands allow; one that cannot be computed (an unknown operand, a
// cycle, an unknown operator) is listed in r.Unsupported and has no
// series.
func (p *plan) generate(a *Analysis, pa *plannedAnalysis, r *Report) {
	steps, cyclic := generationOrder(a, pa.idx)
	for _, st := range steps {
		ds := &a.Datasources[st.di]
		if st.why != "" {
			r.unsupported(a.Name, ds.Name, st.why)
			continue
		}
		di, li, ri, f := st.di, st.li, st.ri, ds.Formula
		right, byInstance := []member(nil), map[string]int(nil)
		if ri >= 0 {
			right = pa.dss[ri].members
			byInstance = instances(right)
		}
		for _, lm := range pa.dss[li].members {
			g := generator{id: p.sources, left: lm.source, right: -1, f: f}
			d := derived{id: p.sources, f: f, left: lm.source, right: -1, leftRound: pa.dss[li].ds.Round}
			if ri >= 0 {
				rm, ok := joinInstance(lm, right, byInstance)
				if !ok {
					continue
				}
				g.right, d.right, d.rightRound = rm.source, rm.source, pa.dss[ri].ds.Round
				p.need(rm.source)
			}
			p.need(lm.source)
			p.sources++
			if f.PerSlice {
				p.derived = append(p.derived, d)
			} else {
				p.gens = append(p.gens, g)
			}
			parts := lm.parts
			if ds.Path.Counter != "" {
				parts.Counter = ds.Path.Counter
				if ds.Path.Object != "" {
					parts.Object = ds.Path.Object
				}
			} else {
				parts.Counter = ds.Name
			}
			path := string(parts.AppendTo(nil))
			if parts.Machine != "" && strings.HasPrefix(lm.path, `\\`) && !strings.HasPrefix(path, `\\`) {
				path = `\\` + path
			}
			pa.dss[di].members = append(pa.dss[di].members, member{source: g.id, path: path, parts: parts, store: -1})
		}
	}
	for _, di := range cyclic {
		r.unsupported(a.Name, a.Datasources[di].Name, "the formulas of the generated datasources form a cycle")
	}
}

// genStep is one generated datasource in generationOrder: its index, its
// operands' (ri −1 for a constant), or why it has no series.
type genStep struct {
	di, li, ri int
	why        string
}

// generationOrder returns the generated datasources of a in the order in
// which they are done, and those never done (a cycle, or depending on
// one), in their order. The order is a fixpoint's: passes over the
// datasources in their order, each doing those whose operands are done,
// until a pass does none. It is computed, not run (a chain of generated
// datasources written last to first took as many passes as datasources):
// a datasource's pass is the least after its operands' (the same pass for
// an operand before it), and they are done by pass, then order.
func generationOrder(a *Analysis, idx *dsIndex) (steps []genStep, cyclic []int) {
	const never = math.MaxInt
	n := len(a.Datasources)
	all := make([]genStep, n)
	pass := make([]int, n)
	state := make([]byte, n) // 0 unseen, 1 being computed, 2 computed
	for di := range a.Datasources {
		ds := &a.Datasources[di]
		all[di] = genStep{di: di, li: -1, ri: -1}
		if ds.Kind == CounterLog {
			state[di] = 2
			continue
		}
		f := ds.Formula
		if f == nil || !strings.ContainsRune("+-*/", rune(f.Op)) || f.Op == 0 {
			all[di].why = "a generated datasource without a formula perfcalc computes"
			continue
		}
		li, ri := idx.find(f.Left), -1
		if f.Left == "" {
			li = -1
		}
		if f.Right != "" {
			ri = idx.find(f.Right)
		}
		if li < 0 || li == di || (f.Right != "" && (ri < 0 || ri == di)) {
			all[di].why = "the formula names a datasource the analysis does not have"
			continue
		}
		all[di].li, all[di].ri = li, ri
	}
	var passOf func(di int) int
	passOf = func(di int) int {
		switch state[di] {
		case 1:
			return never
		case 2:
			return pass[di]
		}
		state[di] = 1
		p := 1
		for _, o := range []int{all[di].li, all[di].ri} {
			if o < 0 {
				continue
			}
			po := passOf(o)
			if po == never {
				p = never
				break
			}
			if o > di {
				po++ // done after it in the same pass: the next
			}
			p = max(p, po)
		}
		pass[di], state[di] = p, 2
		return p
	}
	var order []int
	for di := range a.Datasources {
		if a.Datasources[di].Kind == CounterLog {
			continue
		}
		if passOf(di) == never {
			cyclic = append(cyclic, di)
		} else {
			order = append(order, di)
		}
	}
	heapSort(len(order), func(i, j int) bool {
		x, y := order[i], order[j]
		return pass[x] < pass[y] || pass[x] == pass[y] && x < y
	}, func(i, j int) { order[i], order[j] = order[j], order[i] })
	for _, di := range order {
		steps = append(steps, all[di])
	}
	return steps, cyclic
}

// need marks a source as read (a column) — generated sources are computed.
func (p *plan) need(source int) {
	if source < len(p.needCol) {
		p.needCol[source] = true
	}
}

// joinInstance returns the member of right with lm's instance (full name,
// case-insensitive; byInstance: instances(right)), or right's only member.
func joinInstance(lm member, right []member, byInstance map[string]int) (member, bool) {
	if i, ok := byInstance[instanceKey(&lm.parts)]; ok {
		return right[i], true
	}
	if len(right) == 1 {
		return right[0], true
	}
	return member{}, false
}

// instanceKey is the key of a member's instance in joinInstance's map:
// whether it has one, and its full instance name (FoldKey).
func instanceKey(p *counterpath.Path) string {
	if !p.HasInstance {
		return "-" + foldKey(fullInstance(p))
	}
	return "+" + foldKey(fullInstance(p))
}

// instances returns the members' indexes by instanceKey, the first of
// each, for joinInstance.
func instances(ms []member) map[string]int {
	m := make(map[string]int, len(ms))
	for i := range ms {
		if _, ok := m[instanceKey(&ms[i].parts)]; !ok {
			m[instanceKey(&ms[i].parts)] = i
		}
	}
	return m
}

// useSpill gives the stores the budget and spill of opts.
func (p *plan) useSpill(opts *Options) {
	p.spill = newSpill(opts, len(p.stores))
	for _, s := range p.stores {
		s.store.sp = p.spill
		s.store.noChart = opts.NoCharts
	}
}

// finish computes the statistics, the results and the alerts. Each
// store's values are loaded, used and released before the next store's:
// a spill's read failure is returned.
func (p *plan) finish(r *Report, tl *timeline) error {
	perSlice := make([]bool, len(p.stores))
	for _, d := range p.derived {
		for round := -1; round <= 30; round++ {
			if i, ok := p.byStore[int64(d.id)*32+int64(round)+1]; ok {
				perSlice[i] = true
			}
		}
	}
	// Each store's statistics are its own (the timeline is only read): the
	// stores are shared among the CPUs. Each worker loads a store's values
	// into a buffer of its own (the largest series' it computed), read back
	// from the spill where they went there.
	workers := parallelism(len(p.stores))
	bufs := make([][]float64, workers)
	tmps := make([][]byte, workers)
	errs := make([]error, len(p.stores))
	parallel(len(p.stores), func(w, i int) {
		s := p.stores[i]
		if perSlice[i] {
			return
		}
		var err error
		if bufs[w], err = s.store.load(bufs[w], &tmps[w]); err != nil {
			errs[i] = err
			return
		}
		s.stats = sliceStats(s.store, tl, r.Interval)
		s.all = overallStats(s.store, s.stats, r.PALCompat)
		s.store.values = nil
	})
	for _, err := range errs { // the first store's, as one goroutine would return it
		if err != nil {
			return err
		}
	}
	// The series computed per slice, after their operands (which precede
	// them: generate creates operands first).
	for _, d := range p.derived {
		for round := -1; round <= 30; round++ {
			i, ok := p.byStore[int64(d.id)*32+int64(round)+1]
			if !ok {
				continue
			}
			s := p.stores[i]
			p.fillPerSlice(s.store, &d, r.Slices, r.PALCompat)
			s.stats = sliceStats(s.store, tl, r.Interval)
			s.all = overallStats(s.store, s.stats, r.PALCompat)
		}
	}
	var alerts []Alert
	var owner []int // per alert: its analysis' index
	for ai := range p.analyses {
		pa := &p.analyses[ai]
		res := Result{Analysis: pa.a, Skipped: pa.skipped}
		if pa.skipped != "" {
			r.Results = append(r.Results, res)
			continue
		}
		// The analysis' alerts: slots[at[path]+k] is the index in alerts of
		// the alert of the path in slice k, or −1.
		var slots []int32
		at := map[string]int{}
		// Thresholds computed from a count are resolved per machine.
		byMachine := p.resolver(pa, r)
		res.Analysis = byMachine(r.Machine)
		// The thresholds of each datasource, per analysis (of a machine).
		byDS := map[*Analysis][][]*Threshold{}
		thresholdsOf := func(a *Analysis, di int) []*Threshold {
			t, ok := byDS[a]
			if !ok {
				t = make([][]*Threshold, len(pa.dss))
				for ti := range a.Thresholds {
					th := &a.Thresholds[ti]
					if i := pa.idx.find(th.Datasource); i >= 0 && i < len(t) {
						t[i] = append(t[i], th)
					}
				}
				byDS[a] = t
			}
			return t[di]
		}
		for di := range pa.dss {
			pd := &pa.dss[di]
			for _, m := range pd.members {
				ths := thresholdsOf(byMachine(m.parts.Machine), di)
				s := p.stores[m.store]
				se := Series{Datasource: pd.ds.Name, Path: m.path, Parts: m.parts, Overall: s.all, Slices: s.stats, Chart: s.store.chart}
				se.Overall.NoThresholds = len(ths) == 0
				prio := 0
				for _, th := range ths {
					if se.Overall.N > 0 && breaks(th, &se.Overall.Stats, p.compat) && (se.Overall.Condition == OK || th.Priority >= prio) {
						se.Overall.Condition, prio = th.Condition, th.Priority
					}
				}
				base, ok := at[m.path]
				if !ok {
					base = -1
				}
				for k := range s.stats {
					st := &s.stats[k]
					for _, th := range ths {
						if !breaks(th, st, p.compat) {
							continue
						}
						if base < 0 {
							base = len(slots)
							at[m.path] = base
							for range s.stats {
								slots = append(slots, -1)
							}
						}
						if j := slots[base+k]; j >= 0 {
							if a := &alerts[j]; th.Priority >= a.Priority {
								a.Condition, a.Priority, a.Threshold = th.Condition, th.Priority, th.Name
							}
							continue
						}
						slots[base+k] = int32(len(alerts))
						alerts = append(alerts, newAlert(pa.a, th, pd.ds.Name, m.path, k, &r.Slices[k], st))
						owner = append(owner, ai)
					}
				}
				res.Series = append(res.Series, se)
			}
		}
		r.Results = append(r.Results, res)
		for ti := range pa.a.Thresholds {
			if th := &pa.a.Thresholds[ti]; pa.idx.find(th.Datasource) < 0 {
				r.unsupported(pa.a.Name, th.Name, "the threshold names a datasource the analysis does not have: "+th.Datasource)
			}
		}
	}
	// (slice, analysis, path) is unique: an analysis has one alert per
	// slice and path.
	order := make([]int, len(alerts))
	for i := range order {
		order[i] = i
	}
	heapSort(len(order), func(i, j int) bool {
		x, y := &alerts[order[i]], &alerts[order[j]]
		switch {
		case x.Slice != y.Slice:
			return x.Slice < y.Slice
		case owner[order[i]] != owner[order[j]]:
			return owner[order[i]] < owner[order[j]]
		}
		return x.Path < y.Path
	}, func(i, j int) { order[i], order[j] = order[j], order[i] })
	r.Alerts = make([]Alert, len(alerts))
	for i, j := range order {
		r.Alerts[i] = alerts[j]
	}
	return nil
}

// resolver returns, for an analysis with thresholds or bands computed
// from a count (Threshold.Count, Band.Count), a function giving the
// analysis with them computed for a machine's series (a copy, made once
// per machine); for one without, the analysis itself. What cannot be
// computed for the machine is left out of the copy and listed in
// r.Unsupported.
func (p *plan) resolver(pa *plannedAnalysis, r *Report) func(machine string) *Analysis {
	counted := false
	for i := range pa.a.Thresholds {
		counted = counted || pa.a.Thresholds[i].Count != nil
	}
	for i := range pa.a.Charts {
		for j := range pa.a.Charts[i].Bands {
			counted = counted || pa.a.Charts[i].Bands[j].Count != nil
		}
	}
	if !counted {
		return func(string) *Analysis { return pa.a }
	}
	done := map[string]*Analysis{}
	return func(machine string) *Analysis {
		key := foldKey(machine)
		if a, ok := done[key]; ok {
			return a
		}
		a := *pa.a
		a.Thresholds, a.Charts = nil, nil
		eval := func(what string, c *Count) (float64, float64, bool) {
			n, why := p.count(pa, c.Datasource, key)
			if why != "" {
				r.unsupported(a.Name, what, why)
				return 0, 0, false
			}
			x, y, err := c.Eval(n)
			if err == nil && (math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0)) {
				err = errors.New("the value is not finite")
			}
			if err != nil {
				r.unsupported(a.Name, what, "with the count "+strconv.Itoa(n)+" of "+c.Datasource+": "+err.Error())
				return 0, 0, false
			}
			return x, y, true
		}
		for _, th := range pa.a.Thresholds {
			if th.Count != nil {
				v, _, ok := eval(th.Name, th.Count)
				if !ok {
					continue
				}
				th.Value, th.Count = v, nil
			}
			a.Thresholds = append(a.Thresholds, th)
		}
		for _, ch := range pa.a.Charts {
			bands := ch.Bands
			ch.Bands = nil
			for _, b := range bands {
				if b.Count != nil {
					lo, hi, ok := eval("chart "+ch.Title+" band "+conditionName(b.Condition), b.Count)
					if !ok {
						continue
					}
					b.Min, b.Max, b.Count = lo, hi, nil
				}
				ch.Bands = append(ch.Bands, b)
			}
			a.Charts = append(a.Charts, ch)
		}
		done[key] = &a
		return &a
	}
}

// count returns the count Threshold.Count's Eval gets for the datasource
// named ds of an analysis on a machine (its foldKey), or why there is
// none (doc/ANALYSIS.md §4; Count's doc).
func (p *plan) count(pa *plannedAnalysis, ds, machine string) (int, string) {
	di := pa.idx.find(ds)
	if di < 0 || di >= len(pa.dss) {
		return 0, "the count's datasource " + ds + " is not one of the analysis'"
	}
	if !p.compat {
		n := 0
		for _, m := range pa.dss[di].members {
			if foldKey(m.parts.Machine) == machine && !strings.EqualFold(m.parts.Instance, "_Total") {
				n++
			}
		}
		if n == 0 {
			return 0, "no instance of " + ds + " (other than _Total) on the machine " + machine
		}
		return n + 1, ""
	}
	// PAL: the collection of the first analysis run with a datasource of
	// the same variable, its series with values, every machine.
	v := pa.a.Datasources[di].Var
	for qi := range p.analyses {
		q := &p.analyses[qi]
		if q.skipped != "" {
			continue
		}
		for qd := range q.dss {
			d := q.dss[qd].ds
			if d != &pa.a.Datasources[di] && (v == "" || !strings.EqualFold(d.Var, v)) {
				continue
			}
			n := 0
			for _, m := range q.dss[qd].members {
				if p.stores[m.store].all.N > 0 {
					n++
				}
			}
			return n, ""
		}
	}
	return 0, "" // unreachable: the analysis itself has the datasource
}

// parallelism returns how many goroutines parallel uses for n calls:
// the CPUs (runtime.GOMAXPROCS), at most n, at least 1.
func parallelism(n int) int { return max(min(runtime.GOMAXPROCS(0), n), 1) }

// parallel calls f(w, i) for every i in [0, n), on parallelism(n)
// goroutines (w, from 0, is the caller's: what it owns may be reused from
// one call to the next), and returns when every call has returned. The
// calls must not depend on one another.
func parallel(n int, f func(w, i int)) {
	workers := parallelism(n)
	if workers == 1 {
		for i := range n {
			f(0, i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(w, i)
			}
		}()
	}
	wg.Wait()
}

// fillPerSlice fills the store of a series computed per slice: one value
// per slice where its operands have values there, from their slice means.
func (p *plan) fillPerSlice(st *store, d *derived, sl []Slice, compat bool) {
	st.perSlice = true
	left, right := p.statsOf(d.left, d.leftRound), []Stats(nil)
	if d.right >= 0 {
		right = p.statsOf(d.right, d.rightRound)
	}
	for k := range sl {
		st.offsets = append(st.offsets, int32(len(st.values)))
		if k >= len(left) || left[k].N == 0 || (d.right >= 0 && (k >= len(right) || right[k].N == 0)) {
			continue
		}
		b := d.f.Constant
		if d.right >= 0 {
			b = right[k].Avg
		}
		v, ok := applyFormula(d.f, left[k].Avg, b)
		if !ok {
			continue
		}
		if !compat {
			v = roundTo(v, st.round)
		}
		st.values = append(st.values, v)
		if st.noChart {
			continue
		}
		st.chart = append(st.chart, Point{Start: sl[k].Start, End: sl[k].End, Min: v, Avg: v, Max: v})
	}
}

// statsOf returns the slice statistics of a source's series with a
// rounding, nil where Run has none.
func (p *plan) statsOf(source, round int) []Stats {
	round = min(max(round, -1), 30)
	if i, ok := p.byStore[int64(source)*32+int64(round)+1]; ok {
		return p.stores[i].stats
	}
	return nil
}

// newAlert returns the alert of threshold th broken by the series path of
// the datasource ds in slice k (sl) with the statistics st.
//
//go:noinline
func newAlert(a *Analysis, th *Threshold, ds, path string, k int, sl *Slice, st *Stats) Alert {
	return Alert{
		Analysis: a.Name, ID: a.ID, Datasource: ds, Category: a.Category, Condition: th.Condition,
		Priority: th.Priority, Threshold: th.Name, Path: path, Slice: k,
		Start: sl.Start, End: sl.End, Min: st.Min, Avg: st.Avg, Max: st.Max, Trend: st.Trend,
	}
}

// breaks reports whether st breaks th: its trend (TrendOnly), else its min,
// mean or max compared with th.Value by th.Operator. Exact: a slice without
// values breaks nothing, and NotEqual is ≠; compat (PAL): every slice is
// compared (PAL's −1 mean of an empty slice included), and NotEqual acts
// as Greater.
func breaks(th *Threshold, st *Stats, compat bool) bool {
	if st.N == 0 && !compat {
		return false
	}
	if th.TrendOnly {
		return compare(th.Operator, st.Trend, th.Value, compat)
	}
	return compare(th.Operator, st.Min, th.Value, compat) ||
		compare(th.Operator, st.Avg, th.Value, compat) ||
		compare(th.Operator, st.Max, th.Value, compat)
}

// compare returns v op t.
func compare(op Operator, v, t float64, compat bool) bool {
	switch op {
	case GreaterEqual:
		return v >= t
	case Less:
		return v < t
	case LessEqual:
		return v <= t
	case Equal:
		return v == t
	case NotEqual:
		if !compat {
			return v != t
		}
	}
	return v > t
}

// FoldKey returns s with each rune replaced by the smallest rune of its
// simple case-folding orbit: two strings have the same key exactly when
// strings.EqualFold holds for them (without strings.ToLower's tables). A
// map keyed by it finds names case-insensitively, as EqualFold compares
// them.
func FoldKey(s string) string { return foldKey(s) }

func foldKey(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || 'a' <= c && c <= 'z' {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		b = utf8.AppendRune(b, m)
	}
	return string(b)
}

// unsupported lists what could not be evaluated, unless the set's loader
// already listed it (the same analysis and name).
//
//go:noinline
func (r *Report) unsupported(analysis, what, reason string) {
	for _, u := range r.Unsupported {
		if u.Analysis == analysis && u.What == what {
			return
		}
	}
	r.Unsupported = append(r.Unsupported, Unsupported{Analysis: analysis, What: what, Reason: reason})
}
