package palxml

import (
	"errors"
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/analysis"
	"github.com/perfcalc/perfcalc/analysis/psexpr"
	"github.com/perfcalc/perfcalc/engine/counterpath"
)

// MaxFiles is the most threshold files one Load reads (the file and those
// it inherits, transitively).
const MaxFiles = 64

// Error is a threshold file Load refuses: the file's name and why (a
// *SyntaxError for XML that is not well-formed, wrapped).
type Error struct {
	File string
	Msg  string
	Err  error
}

func (e *Error) Error() string {
	s := "palxml: " + e.File + ": " + e.Msg
	if e.Err != nil {
		if e.Msg != "" {
			s += ": "
		}
		s += e.Err.Error()
	}
	return s
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// errSkip leaves out an analysis listed in Set.Unsupported.
var errSkip = errors.New("analysis left out")

// ErrNoValue is the cause of Load's error for a question that a threshold
// needs and that has neither a default nor a value.
var ErrNoValue = errors.New("the question has no default: set it")

type file struct {
	name string
	root *Node
}

// Load reads the PAL threshold file name and the files it inherits
// (INHERITANCE, relative to its folder), through read, and evaluates its
// thresholds with the question values: each question's DEFAULTVALUE,
// overridden by values (variable names compared case-insensitively, as
// PowerShell does; "--set NAME=VALUE").
//
// A file without PALVERSION, with a PALVERSION not starting with 2, or
// in PAL's v1 schema (ANALYSIS with COUNTER elements and VBScript
// thresholds) is refused with an *Error saying so; so is a value that does
// not fit its question's type, a value for no question, and an options
// question without a default that a threshold needs. Thresholds, chart
// bands and Generated datasources that cannot be evaluated are listed in
// Set.Unsupported with the reason.
func Load(name string, read func(name string) ([]byte, error), values map[string]string) (*analysis.Set, error) {
	var files []file
	seen := map[string]bool{}
	if err := loadFile(name, read, &files, seen, 0); err != nil {
		return nil, err
	}
	main := files[0]
	set := &analysis.Set{Values: map[string]string{}}
	set.Name, _ = main.root.Attr("NAME")

	// Questions: the main file's first, then the inherited files' unless
	// their variable exists.
	type question struct {
		q    analysis.Question
		file string
	}
	var qs []question
	for _, f := range files {
		for _, n := range f.root.Children {
			if n.Name != "QUESTION" {
				continue
			}
			q := analysis.Question{Prompt: strings.TrimSpace(n.Text)}
			q.Var, _ = n.Attr("QUESTIONVARNAME")
			q.Type, _ = n.Attr("DATATYPE")
			q.Type = strings.ToLower(q.Type)
			q.Default, q.HasDefault = n.Attr("DEFAULTVALUE")
			if o, ok := n.Attr("OPTIONS"); ok && o != "" {
				q.Options = strings.Split(o, ",")
			}
			if q.Var == "" {
				return nil, &Error{File: f.name, Msg: "QUESTION at line " + strconv.Itoa(line(n)) + " without QUESTIONVARNAME"}
			}
			dup := false
			for _, o := range qs {
				dup = dup || strings.EqualFold(o.q.Var, q.Var)
			}
			if !dup {
				qs = append(qs, question{q, f.name})
			}
		}
	}
	for k := range values {
		found := false
		for _, q := range qs {
			found = found || strings.EqualFold(q.q.Var, k)
		}
		if !found {
			var names []string
			for _, q := range qs {
				names = append(names, q.q.Var)
			}
			msg := "no question " + strconv.Quote(k)
			if len(names) > 0 {
				msg += " (its questions: " + strings.Join(names, ", ") + ")"
			} else {
				msg += " (it has no questions)"
			}
			return nil, &Error{File: main.name, Msg: msg}
		}
	}
	vars := map[string]psexpr.Value{}
	unset := map[string]analysis.Question{}
	for _, q := range qs {
		set.Questions = append(set.Questions, q.q)
		v, ok := "", false
		for k, val := range values {
			if strings.EqualFold(k, q.q.Var) {
				v, ok = val, true
			}
		}
		if !ok && q.q.HasDefault {
			v, ok = q.q.Default, true
		}
		if !ok {
			unset[strings.ToLower(q.q.Var)] = q.q
			continue
		}
		pv, err := typed(q.q, v)
		if err != nil {
			return nil, &Error{File: q.file, Msg: "question " + q.q.Var + ": " + err.Error()}
		}
		vars[q.q.Var] = pv
		set.Values[q.q.Var] = v
	}

	// Analyses: all of the main file's, then the inherited files' unless
	// one with the same ID or NAME exists.
	ids, names := map[string]bool{}, map[string]bool{}
	for fi, f := range files {
		for _, n := range f.root.Children {
			if n.Name != "ANALYSIS" {
				continue
			}
			id, _ := n.Attr("ID")
			nm, _ := n.Attr("NAME")
			if fi > 0 && (id != "" && ids[id] || names[nm]) {
				continue
			}
			if id != "" {
				ids[id] = true
			}
			names[nm] = true
			a, err := analysisOf(f.name, n, vars, unset, set)
			if err == errSkip {
				continue
			}
			if err != nil {
				return nil, err
			}
			set.Analyses = append(set.Analyses, a)
		}
	}
	return set, nil
}

func line(n *Node) int { return n.Line }

// typed converts a question's value by its DATATYPE.
func typed(q analysis.Question, v string) (psexpr.Value, error) {
	switch q.Type {
	case "boolean", "bool":
		switch strings.ToLower(strings.TrimPrefix(strings.TrimSpace(v), "$")) {
		case "true", "1":
			return psexpr.Boolean(true), nil
		case "false", "0":
			return psexpr.Boolean(false), nil
		}
		return psexpr.Value{}, errors.New(strconv.Quote(v) + " is not a boolean (True or False)")
	case "integer", "int", "long":
		n, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || n != n || n > 1e15 || n < -1e15 {
			return psexpr.Value{}, errors.New(strconv.Quote(v) + " is not an integer")
		}
		return psexpr.Num(n), nil
	case "options":
		if len(q.Options) > 0 {
			for _, o := range q.Options {
				if strings.EqualFold(strings.TrimSpace(o), strings.TrimSpace(v)) {
					return psexpr.Str(v), nil
				}
			}
			return psexpr.Value{}, errors.New(strconv.Quote(v) + " is not one of its options (" + strings.Join(q.Options, ", ") + ")")
		}
	}
	return psexpr.Str(v), nil
}

// loadFile reads one file and, depth first, those it inherits.
func loadFile(name string, read func(string) ([]byte, error), files *[]file, seen map[string]bool, depth int) error {
	key := strings.ToLower(strings.ReplaceAll(name, "\\", "/"))
	if seen[key] {
		return nil // an inheritance loop: ignored, as PAL does
	}
	seen[key] = true
	if len(*files) >= MaxFiles {
		return &Error{File: name, Msg: "more than " + strconv.Itoa(MaxFiles) + " inherited files"}
	}
	b, err := read(name)
	if err != nil {
		return &Error{File: name, Msg: "cannot read it", Err: err}
	}
	root, err := Parse(b)
	if err != nil {
		return &Error{File: name, Err: err}
	}
	if root.Name != "PAL" {
		return &Error{File: name, Msg: "the root element is <" + root.Name + ">, not <PAL>: not a PAL threshold file"}
	}
	v, ok := root.Attr("PALVERSION")
	if !ok {
		return &Error{File: name, Msg: "<PAL> has no PALVERSION attribute: not a PAL v2 threshold file (PAL refuses it too)"}
	}
	if !strings.HasPrefix(strings.TrimSpace(v), "2") {
		return &Error{File: name, Msg: "PALVERSION " + strconv.Quote(v) + ": only PAL's version 2 schema is read"}
	}
	for _, n := range root.Children {
		if n.Name != "ANALYSIS" {
			continue
		}
		hasCounter, hasDS := false, false
		for _, c := range n.Children {
			hasCounter = hasCounter || c.Name == "COUNTER"
			hasDS = hasDS || c.Name == "DATASOURCE"
		}
		if hasCounter && !hasDS {
			nm, _ := n.Attr("NAME")
			return &Error{File: name, Msg: "ANALYSIS " + strconv.Quote(nm) + " at line " + strconv.Itoa(n.Line) + " is in PAL's v1 schema (COUNTER elements, VBScript thresholds), which is not read"}
		}
	}
	*files = append(*files, file{name: name, root: root})
	for _, n := range root.Children {
		if n.Name != "INHERITANCE" {
			continue
		}
		p, _ := n.AttrFold("FILEPATH")
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if err := loadFile(join(name, p), read, files, seen, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// join resolves p relative to the folder of name (either slash), with
// ".." and "." resolved, and "/" as the separator.
func join(name, p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	if strings.HasPrefix(p, "/") || len(p) > 1 && p[1] == ':' {
		return p
	}
	k := strings.LastIndexAny(name, "/\\")
	if k < 0 {
		return path.Clean(p)
	}
	return path.Clean(strings.ReplaceAll(name[:k+1], "\\", "/") + p)
}

// FSReader returns a read function for Load over fsys that, like Windows
// where PAL runs, finds a file whose name differs only in case (SP2013.xml
// inherits "quicksystemoverview.xml").
func FSReader(fsys fs.FS) func(name string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		name = strings.ReplaceAll(name, "\\", "/")
		b, err := fs.ReadFile(fsys, name)
		if err == nil || !errors.Is(err, fs.ErrNotExist) {
			return b, err
		}
		dir, base := ".", name
		if k := strings.LastIndexByte(name, '/'); k >= 0 {
			dir, base = name[:k], name[k+1:]
		}
		ents, derr := fs.ReadDir(fsys, dir)
		if derr != nil {
			return nil, err
		}
		for _, e := range ents {
			if strings.EqualFold(e.Name(), base) {
				if dir == "." {
					return fs.ReadFile(fsys, e.Name())
				}
				return fs.ReadFile(fsys, dir+"/"+e.Name())
			}
		}
		return nil, err
	}
}

// condition reads CONDITION with PAL's typos (Waning, WARNING, CRITICAL).
func condition(s string) (analysis.Condition, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "warning", "waning", "warn":
		return analysis.Warning, true
	case "critical", "crit":
		return analysis.Critical, true
	}
	return analysis.OK, false
}

var operators = map[string]analysis.Operator{
	"gt": analysis.Greater, "ge": analysis.GreaterEqual, "lt": analysis.Less,
	"le": analysis.LessEqual, "eq": analysis.Equal, "ne": analysis.NotEqual,
}

func analysisOf(fname string, n *Node, vars map[string]psexpr.Value, unset map[string]analysis.Question, set *analysis.Set) (analysis.Analysis, error) {
	var a analysis.Analysis
	a.Name, _ = n.Attr("NAME")
	a.ID, _ = n.Attr("ID")
	a.Category, _ = n.Attr("CATEGORY")
	a.Primary, _ = n.Attr("PRIMARYDATASOURCE")
	en, ok := n.Attr("ENABLED")
	a.Enabled = !ok || strings.EqualFold(strings.TrimSpace(en), "true")
	unsupported := func(elem, what, reason string) {
		set.Unsupported = append(set.Unsupported, analysis.Unsupported{Analysis: a.Name, What: what, Reason: reason, Element: elem})
	}
	for _, c := range n.Children {
		if c.Name == "DESCRIPTION" {
			a.Description = c.Text
		}
	}
	for _, c := range n.Children {
		if c.Name != "DATASOURCE" {
			continue
		}
		d, reason := datasourceOf(c)
		if reason != "" && d.Kind == analysis.Generated {
			// Kept without a Formula: Run skips the analysis as it
			// skips one whose datasource matches nothing.
			unsupported("DATASOURCE", d.Name, reason)
		} else if reason != "" {
			unsupported("ANALYSIS", a.Name, "DATASOURCE "+strconv.Quote(d.Name)+" at line "+strconv.Itoa(c.Line)+": "+reason)
			return a, errSkip
		}
		a.Datasources = append(a.Datasources, d)
	}
	// Generated formulas name their operands by collection variable:
	// turn them into datasource names.
	for i := range a.Datasources {
		if f := a.Datasources[i].Formula; f != nil {
			l, r := byVar(a.Datasources, f.Left), byVar(a.Datasources, f.Right)
			if l == "" || f.Right != "" && r == "" {
				unsupported("DATASOURCE", a.Datasources[i].Name, "its formula's operands are not datasources of the analysis")
				a.Datasources[i].Formula = nil
				continue
			}
			f.Left, f.Right = l, r
		}
	}
	eval := func(code string) ([]psexpr.Call, error) {
		calls, err := psexpr.Eval(code, vars)
		var pe *psexpr.Error
		if errors.As(err, &pe) && pe.Var != "" {
			if q, ok := unset[strings.ToLower(pe.Var)]; ok {
				return nil, &Error{File: fname, Msg: "ANALYSIS " + strconv.Quote(a.Name) + " needs question " + q.Var + " (" + strings.TrimSpace(q.Prompt) + "), which has no default: set it (--set " + q.Var + "=VALUE)", Err: ErrNoValue}
			}
		}
		return calls, err
	}
	for _, c := range n.Children {
		if c.Name != "THRESHOLD" {
			continue
		}
		name, _ := c.Attr("NAME")
		cs, _ := c.Attr("CONDITION")
		cond, ok := condition(cs)
		if !ok {
			unsupported("THRESHOLD", name, "CONDITION "+strconv.Quote(cs)+" is neither Warning nor Critical")
			continue
		}
		prio := 0
		if ps, ok := c.Attr("PRIORITY"); ok && strings.TrimSpace(ps) != "" {
			p, err := strconv.Atoi(strings.TrimSpace(ps))
			if err != nil {
				unsupported("THRESHOLD", name, "PRIORITY "+strconv.Quote(ps)+" is not an integer")
				continue
			}
			prio = p
		}
		code := childText(c, "CODE")
		if strings.TrimSpace(code) == "" {
			unsupported("THRESHOLD", name, "no CODE")
			continue
		}
		calls, err := eval(code)
		if err != nil {
			var le *Error
			if errors.As(err, &le) {
				return a, err
			}
			unsupported("THRESHOLD", name, err.Error())
			continue
		}
		for _, call := range calls {
			if call.Func != "StaticThreshold" {
				unsupported("THRESHOLD", name, call.Func+" in a THRESHOLD")
				continue
			}
			op, ok := operators[call.Operator]
			if !ok {
				unsupported("THRESHOLD", name, "-Operator "+strconv.Quote(call.Operator)+" is not one of gt, ge, lt, le, eq, ne")
				continue
			}
			ds := byVar(a.Datasources, call.Collection)
			if ds == "" {
				unsupported("THRESHOLD", name, "-CollectionOfCounterInstances $"+call.Collection+" is no datasource's COLLECTIONVARNAME in the analysis")
				continue
			}
			a.Thresholds = append(a.Thresholds, analysis.Threshold{
				Name: name, Condition: cond, Priority: prio, Datasource: ds,
				Operator: op, Value: call.Threshold, TrendOnly: call.TrendOnly,
			})
		}
	}
	for _, c := range n.Children {
		if c.Name != "CHART" {
			continue
		}
		ch := analysis.Chart{}
		ch.Title, _ = c.Attr("CHARTTITLE")
		ch.Datasource, _ = c.Attr("DATASOURCE")
		if m, ok := c.Attr("MAXLIMIT"); ok && strings.TrimSpace(m) != "" {
			f, err := strconv.ParseFloat(strings.TrimSpace(m), 64)
			if err == nil && f >= 0 && f < 1e300 {
				ch.MaxLimit = f
			}
		}
		for _, s := range c.Children {
			if s.Name != "SERIES" {
				continue
			}
			sn, _ := s.Attr("NAME")
			what := "chart " + strconv.Quote(ch.Title) + " series " + strconv.Quote(sn)
			cond, ok := condition(sn)
			if !ok {
				unsupported("SERIES", what, "SERIES NAME is neither Warning nor Critical")
				continue
			}
			calls, err := eval(childText(s, "CODE"))
			if err != nil {
				var le *Error
				if errors.As(err, &le) {
					return a, err
				}
				unsupported("SERIES", what, err.Error())
				continue
			}
			for _, call := range calls {
				if call.Func != "StaticChartThreshold" {
					unsupported("SERIES", what, call.Func+" in a chart SERIES")
					continue
				}
				ch.Bands = append(ch.Bands, analysis.Band{Condition: cond, Min: call.Min, Max: call.Max, UseMax: call.UseMax, GreaterThan: call.GreaterThan})
			}
		}
		a.Charts = append(a.Charts, ch)
	}
	return a, nil
}

func childText(n *Node, name string) string {
	for _, c := range n.Children {
		if c.Name == name {
			return c.Text
		}
	}
	return ""
}

// byVar returns the name of the datasource whose COLLECTIONVARNAME is v
// (case-insensitive), or "".
func byVar(ds []analysis.Datasource, v string) string {
	if v == "" {
		return ""
	}
	for _, d := range ds {
		if strings.EqualFold(d.Var, v) {
			return d.Name
		}
	}
	return ""
}

// datasourceOf reads a DATASOURCE; reason says why it cannot be used.
func datasourceOf(n *Node) (analysis.Datasource, string) {
	var d analysis.Datasource
	d.Name, _ = n.Attr("NAME")
	d.Var, _ = n.Attr("COLLECTIONVARNAME")
	typ, _ := n.Attr("TYPE")
	dt, _ := n.Attr("DATATYPE")
	d.Round = -1
	switch dt = strings.ToLower(strings.TrimSpace(dt)); {
	case dt == "integer":
		d.Round = 0
	case len(dt) == 6 && strings.HasPrefix(dt, "round") && dt[5] >= '1' && dt[5] <= '6':
		d.Round = int(dt[5] - '0')
	}
	for _, c := range n.Children {
		if c.Name == "EXCLUDE" {
			if v, ok := c.Attr("INSTANCE"); ok {
				d.Exclude = append(d.Exclude, v)
			}
		}
	}
	if strings.EqualFold(strings.TrimSpace(typ), "Generated") {
		d.Kind = analysis.Generated
		f, reason := generated(childText(n, "CODE"))
		if reason != "" {
			return d, reason
		}
		d.Formula = f
		return d, ""
	}
	if !strings.EqualFold(strings.TrimSpace(typ), "CounterLog") && typ != "" {
		return d, "TYPE " + strconv.Quote(typ) + " is neither CounterLog nor Generated"
	}
	expr, ok := n.Attr("EXPRESSIONPATH")
	if !ok || strings.TrimSpace(expr) == "" {
		expr = d.Name
	}
	p, err := counterpath.Parse(strings.TrimSpace(expr))
	if err != nil {
		return d, err.Error()
	}
	d.Path = p
	if re, _ := n.Attr("ISCOUNTEROBJECTREGULAREXPRESSION"); strings.EqualFold(strings.TrimSpace(re), "true") {
		rp, _ := n.Attr("REGULAREXPRESSIONCOUNTERPATH")
		obj, reason := objectRegexp(rp, p.HasInstance)
		if reason != "" {
			return d, reason
		}
		d.ObjectRegexp = obj
	}
	return d, ""
}

// objectRegexp returns the object part of a REGULAREXPRESSIONCOUNTERPATH
// (\object(instance)\counter, the object a regular expression), checked
// with Go's regexp package.
func objectRegexp(rp string, hasInstance bool) (string, string) {
	rp = strings.TrimSpace(rp)
	if !strings.HasPrefix(rp, "\\") {
		return "", "REGULAREXPRESSIONCOUNTERPATH " + strconv.Quote(rp) + " does not start with a backslash"
	}
	k := strings.LastIndexByte(rp, '\\')
	if k <= 0 {
		return "", "REGULAREXPRESSIONCOUNTERPATH " + strconv.Quote(rp) + " has no counter part"
	}
	obj := rp[1:k]
	// The instance part, "(*)" or as EXPRESSIONPATH has it; some files
	// write "(*)" in the regular expression of an EXPRESSIONPATH without
	// instance (SQLServer2014.xml's Buffer Manager Extension).
	if strings.HasSuffix(obj, "(*)") {
		obj = obj[:len(obj)-3]
	} else if hasInstance && strings.HasSuffix(obj, ")") {
		depth := 0
		for i := len(obj) - 1; i >= 0; i-- {
			switch obj[i] {
			case ')':
				depth++
			case '(':
				depth--
			}
			if depth == 0 {
				obj = obj[:i]
				break
			}
		}
	}
	if obj == "" {
		return "", "REGULAREXPRESSIONCOUNTERPATH " + strconv.Quote(rp) + " has an empty object"
	}
	if _, err := regexp.Compile("(?i)" + obj); err != nil {
		return "", "REGULAREXPRESSIONCOUNTERPATH's object " + strconv.Quote(obj) + " is not a regular expression Go reads: " + err.Error()
	}
	return obj, ""
}
