package palxml

import (
	"errors"
	"path"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/analysis"
	"github.com/perfcalc/perfcalc/analysis/objre"
	"github.com/perfcalc/perfcalc/analysis/psexpr"
	"github.com/perfcalc/perfcalc/engine/counterpath"
)

// MaxFiles is the most threshold files one Load reads (the file and those
// it inherits, transitively).
const MaxFiles = 64

// MaxTotal is the most bytes of the files of one Load together (each at
// most MaxInput): twice the largest file, so that a file of the largest
// size may inherit as much again (PAL's 72 files are 5 MB together).
const MaxTotal = 2 * MaxInput

// MaxWork is the bytes of strings that the code of one Load's files may
// go through together (psexpr.Env.Work): their string members,
// comparisons and conversions to numbers.
const MaxWork = 4 * psexpr.MaxWork

// File is a threshold file as LoadFiles' read function returns it: its
// bytes and its identity.
type File struct {
	Data []byte
	// ID identifies the file: two names of one file (another spelling of
	// its path, a link to it) have the same ID, and LoadFiles loads it
	// once; "" stands for the name itself (its case and the separator
	// ignored: strings.ToLower), as Load identifies files.
	ID string
}

// Error is a threshold file Load refuses: the file's name and why (a
// *SyntaxError for XML that is not well-formed, wrapped).
type Error struct {
	File string
	Msg  string
	Err  error
}

// Error names the file and says why it is refused.
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
// needs and that has neither a default nor a value (a *MissingValueError
// unwraps to it).
var ErrNoValue = errors.New("the question has no default: set it")

// The causes of Load's *Error that a caller acts on, told apart with
// errors.As rather than by their text: a value for no question
// (*NoQuestionError), a value that does not fit its question
// (*ValueError), a question a threshold needs without a value
// (*MissingValueError), an inherited file that cannot be read
// (*InheritanceError).

// NoQuestionError is a value given for a variable that no question of the
// file (or of the files it inherits) asks.
type NoQuestionError struct {
	Name      string   // the variable given
	Questions []string // the variables the files ask, in order
}

// Error names the variable and the file's questions.
func (e *NoQuestionError) Error() string {
	msg := "no question " + psexpr.Quote(e.Name)
	if len(e.Questions) > 0 {
		return msg + " (its questions: " + strings.Join(e.Questions, ", ") + ")"
	}
	return msg + " (it has no questions)"
}

// ValueError is a value that does not fit its question's type (a
// question's DEFAULTVALUE, or a value given).
type ValueError struct {
	Question string // the question's variable
	Value    string
	Err      error // why
}

// Error names the question and says why.
func (e *ValueError) Error() string { return "question " + e.Question + ": " + e.Err.Error() }

// Unwrap returns why.
func (e *ValueError) Unwrap() error { return e.Err }

// MissingValueError is a question (an options question: PAL gives it no
// default) that a threshold of Analysis needs and that has no value.
type MissingValueError struct {
	Analysis string // the analysis' NAME
	Question string // the question's variable
	Prompt   string
}

// Error names the analysis and the question, and says how to set it.
func (e *MissingValueError) Error() string {
	return "ANALYSIS " + psexpr.Quote(e.Analysis) + " needs question " + e.Question + " (" + e.Prompt + "), which has no default: set it (--set " + e.Question + "=VALUE): " + ErrNoValue.Error()
}

// Unwrap returns ErrNoValue.
func (e *MissingValueError) Unwrap() error { return ErrNoValue }

// InheritanceError is a file named by INHERITANCE that cannot be read: the
// caller may find it elsewhere and give it (the module, whose read
// function has only the files it was given).
type InheritanceError struct {
	File string // the inherited file, as resolved against By's folder
	By   string // the file whose INHERITANCE names it
	Err  error  // the read function's error
}

// Error is the read function's error (the *Error around it names the
// file).
func (e *InheritanceError) Error() string { return e.Err.Error() }

// Unwrap returns the read function's error.
func (e *InheritanceError) Unwrap() error { return e.Err }

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
// not fit its question's type (*ValueError), a value for no question
// (*NoQuestionError), an options question without a default that a
// threshold needs (*MissingValueError), and an inherited file that cannot
// be read (*InheritanceError): each the cause of the *Error, for
// errors.As. Thresholds, chart
// bands and Generated datasources that cannot be evaluated are listed in
// Set.Unsupported with the reason.
func Load(name string, read func(name string) ([]byte, error), values map[string]string) (*analysis.Set, error) {
	return LoadFiles(name, func(name string) (File, error) {
		b, err := read(name)
		return File{Data: b}, err
	}, values)
}

// LoadFiles is Load with a read function that also says which file a name
// is (File.ID): a file is loaded once however many names reach it (an
// inheritance loop through another spelling of a path is ignored as
// one through the same), and the files' bytes count once towards
// MaxTotal. The read function should itself read each file once and
// refuse what is not a regular file (the command: by device and inode).
func LoadFiles(name string, read func(name string) (File, error), values map[string]string) (*analysis.Set, error) {
	var files []file
	l := loader{read: read, seen: map[string]bool{}}
	if err := l.load(name, "", &files); err != nil {
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
	asked := map[string]int{} // analysis.FoldKey(variable): its index in qs
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
			if _, dup := asked[analysis.FoldKey(q.Var)]; !dup {
				asked[analysis.FoldKey(q.Var)] = len(qs)
				qs = append(qs, question{q, f.name})
			}
		}
	}
	// The values given, by question (of several names of one question,
	// any: as before, the map's order decides).
	given := make([]*string, len(qs))
	for k := range values {
		i, found := asked[analysis.FoldKey(k)]
		if !found {
			var names []string
			for _, q := range qs {
				names = append(names, q.q.Var)
			}
			return nil, &Error{File: main.name, Err: &NoQuestionError{Name: k, Questions: names}}
		}
		v := values[k]
		given[i] = &v
	}
	vars := map[string]psexpr.Value{} // lower-case names, built once
	unset := map[string]analysis.Question{}
	for i, q := range qs {
		set.Questions = append(set.Questions, q.q)
		v, ok := "", false
		if given[i] != nil {
			v, ok = *given[i], true
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
			return nil, &Error{File: q.file, Err: &ValueError{Question: q.q.Var, Value: v, Err: err}}
		}
		if _, ok := vars[strings.ToLower(q.q.Var)]; !ok {
			vars[strings.ToLower(q.q.Var)] = pv
		}
		set.Values[q.q.Var] = v
	}
	work := MaxWork

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
			a, err := analysisOf(f.name, n, vars, unset, set, &work)
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
		return psexpr.Value{}, errors.New(psexpr.Quote(v) + " is not a boolean (True or False)")
	case "integer", "int", "long":
		t := strings.TrimSpace(v)
		neg := strings.HasPrefix(t, "-")
		n, ok := psexpr.ParseNumber(strings.TrimPrefix(t, "-"))
		if neg {
			n = -n
		}
		if !ok || n > 1e15 || n < -1e15 {
			return psexpr.Value{}, errors.New(psexpr.Quote(v) + " is not an integer")
		}
		return psexpr.Num(n), nil
	case "options":
		if len(q.Options) > 0 {
			for _, o := range q.Options {
				if strings.EqualFold(strings.TrimSpace(o), strings.TrimSpace(v)) {
					return psexpr.Str(v), nil
				}
			}
			return psexpr.Value{}, errors.New(psexpr.Quote(v) + " is not one of its options (" + strings.Join(q.Options, ", ") + ")")
		}
	}
	return psexpr.Str(v), nil
}

// loader reads the files of one LoadFiles.
type loader struct {
	read  func(string) (File, error)
	seen  map[string]bool // the files read, by identity
	total int             // their bytes
	first string          // the name of the file loaded
}

// nameID is a file's identity by name: the name, case (strings.ToLower)
// and the separator ignored.
func nameID(name string) string {
	return "name:" + strings.ToLower(strings.ReplaceAll(name, "\\", "/"))
}

// load reads one file (inherited by the file by, "" for the first) and,
// depth first, those it inherits.
func (l *loader) load(name, by string, files *[]file) error {
	if l.seen[nameID(name)] {
		return nil // an inheritance loop: ignored, as PAL does
	}
	l.seen[nameID(name)] = true
	if by == "" {
		l.first = name
	}
	if len(*files) >= MaxFiles {
		return &Error{File: name, Msg: "more than " + strconv.Itoa(MaxFiles) + " inherited files"}
	}
	f, err := l.read(name)
	if err != nil {
		msg := "cannot read it"
		if by != "" {
			err = &InheritanceError{File: name, By: by, Err: err}
			msg = "cannot read it (inherited by " + by + ")"
		}
		return &Error{File: name, Msg: msg, Err: err}
	}
	if f.ID != "" {
		if l.seen[f.ID] {
			return nil // another name of a file read: a loop, or read once
		}
		l.seen[f.ID] = true
	}
	b := f.Data
	if l.total += len(b); l.total > MaxTotal {
		return &Error{File: name, Msg: "the threshold files of " + l.first + " are larger than " + strconv.Itoa(MaxTotal) + " bytes together"}
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
		return &Error{File: name, Msg: "PALVERSION " + psexpr.Quote(v) + ": only PAL's version 2 schema is read"}
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
			return &Error{File: name, Msg: "ANALYSIS " + psexpr.Quote(nm) + " at line " + strconv.Itoa(n.Line) + " is in PAL's v1 schema (COUNTER elements, VBScript thresholds), which is not read"}
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
		if err := l.load(join(name, p), name, files); err != nil {
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

// FoldReader returns a read function for Load that, like Windows where
// PAL runs, finds a file whose name differs only in case (SP2013.xml
// inherits "quicksystemoverview.xml"): where read fails, list gives the
// names in the file's folder ("." for none), and the one equal to the
// name under Unicode case folding is read. Names use "/" as the
// separator; T is []byte for Load, File for LoadFiles. (The package takes
// functions, not an io/fs.FS: io/fs brings package time into the
// WebAssembly module.)
func FoldReader[T any](read func(name string) (T, error), list func(dir string) ([]string, error)) func(name string) (T, error) {
	return func(name string) (T, error) {
		b, err := read(name)
		if err == nil {
			return b, nil
		}
		dir, base := ".", name
		if k := strings.LastIndexByte(name, '/'); k >= 0 {
			dir, base = name[:k], name[k+1:]
		}
		names, lerr := list(dir)
		if lerr != nil {
			return b, err
		}
		for _, n := range names {
			if n != base && strings.EqualFold(n, base) {
				if dir == "." {
					return read(n)
				}
				return read(dir + "/" + n)
			}
		}
		return b, err
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

// analysisOf reads an ANALYSIS: vars are the question variables (lower
// case), work the bytes its code's strings may still go through.
func analysisOf(fname string, n *Node, vars map[string]psexpr.Value, unset map[string]analysis.Question, set *analysis.Set, work *int) (analysis.Analysis, error) {
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
			unsupported("ANALYSIS", a.Name, "DATASOURCE "+psexpr.Quote(d.Name)+" at line "+strconv.Itoa(c.Line)+": "+reason)
			return a, errSkip
		}
		a.Datasources = append(a.Datasources, d)
	}
	dsVars := varNames(a.Datasources)
	// Generated formulas name their operands by collection variable:
	// turn them into datasource names.
	for i := range a.Datasources {
		if f := a.Datasources[i].Formula; f != nil {
			l, r := byVar(dsVars, f.Left), byVar(dsVars, f.Right)
			if l == "" || f.Right != "" && r == "" {
				unsupported("DATASOURCE", a.Datasources[i].Name, "its formula's operands are not datasources of the analysis")
				a.Datasources[i].Formula = nil
				continue
			}
			f.Left, f.Right = l, r
		}
	}
	// The analysis' counter collections, for code that reads their
	// count (the processor count): evaluated with probeCount here, and
	// again with the log's count by analysis.Run (Threshold.Count).
	// The question variables first, then the collections (a collection
	// of a question's name is the question's).
	colls := make(map[string]psexpr.Value, len(a.Datasources))
	for _, d := range a.Datasources {
		if k := strings.ToLower(d.Var); k != "" {
			colls[k] = psexpr.Counted(probeCount)
		}
	}
	env := psexpr.Env{Scopes: []map[string]psexpr.Value{vars, colls}, Work: work}
	eval := func(code string) ([]psexpr.Call, error) {
		calls, err := env.Eval(code)
		if pe, ok := err.(*psexpr.Error); ok && pe.Var != "" {
			if q, ok := unset[strings.ToLower(pe.Var)]; ok {
				return nil, &Error{File: fname, Err: &MissingValueError{Analysis: a.Name, Question: q.Var, Prompt: strings.TrimSpace(q.Prompt)}}
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
			unsupported("THRESHOLD", name, "CONDITION "+psexpr.Quote(cs)+" is neither Warning nor Critical")
			continue
		}
		prio := 0
		if ps, ok := c.Attr("PRIORITY"); ok && strings.TrimSpace(ps) != "" {
			p, err := strconv.Atoi(strings.TrimSpace(ps))
			if err != nil {
				unsupported("THRESHOLD", name, "PRIORITY "+psexpr.Quote(ps)+" is not an integer")
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
			if _, ok := err.(*Error); ok {
				return a, err
			}
			unsupported("THRESHOLD", name, err.Error())
			continue
		}
		for ci, call := range calls {
			if call.Func != "StaticThreshold" {
				unsupported("THRESHOLD", name, call.Func+" in a THRESHOLD")
				continue
			}
			op, ok := operators[call.Operator]
			if !ok {
				unsupported("THRESHOLD", name, "-Operator "+psexpr.Quote(call.Operator)+" is not one of gt, ge, lt, le, eq, ne")
				continue
			}
			ds := byVar(dsVars, call.Collection)
			if ds == "" {
				unsupported("THRESHOLD", name, "-CollectionOfCounterInstances $"+call.Collection+" is no datasource's COLLECTIONVARNAME in the analysis")
				continue
			}
			th := analysis.Threshold{
				Name: name, Condition: cond, Priority: prio, Datasource: ds,
				Operator: op, Value: call.Threshold, TrendOnly: call.TrendOnly,
			}
			if call.Count != "" {
				th.Value = 0
				th.Count = countOf(dsVars, code, env.Scopes, ci, call)
			}
			a.Thresholds = append(a.Thresholds, th)
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
			f, ok := psexpr.ParseNumber(strings.TrimSpace(m))
			if ok && f < 1e300 {
				ch.MaxLimit = f
			}
		}
		for _, s := range c.Children {
			if s.Name != "SERIES" {
				continue
			}
			sn, _ := s.Attr("NAME")
			what := "chart " + psexpr.Quote(ch.Title) + " series " + psexpr.Quote(sn)
			cond, ok := condition(sn)
			if !ok {
				unsupported("SERIES", what, "SERIES NAME is neither Warning nor Critical")
				continue
			}
			calls, err := eval(childText(s, "CODE"))
			if err != nil {
				if _, ok := err.(*Error); ok {
					return a, err
				}
				unsupported("SERIES", what, err.Error())
				continue
			}
			code := childText(s, "CODE")
			for ci, call := range calls {
				if call.Func != "StaticChartThreshold" {
					unsupported("SERIES", what, call.Func+" in a chart SERIES")
					continue
				}
				b := analysis.Band{Condition: cond, Min: call.Min, Max: call.Max, UseMax: call.UseMax, GreaterThan: call.GreaterThan}
				if call.Count != "" {
					b.Min, b.Max = 0, 0
					b.Count = countOf(dsVars, code, env.Scopes, ci, call)
				}
				ch.Bands = append(ch.Bands, b)
			}
		}
		a.Charts = append(a.Charts, ch)
	}
	return a, nil
}

// probeCount is the count of a counter collection with which Load
// evaluates code that reads it (4 processors and _Total): the code must
// make a call with it; analysis.Run evaluates it again with the log's.
const probeCount = 5

// countOf returns the Count of the call at index ci of code, which read
// the count of the collection call.Count: Eval runs the code again with
// the count n and returns the same call's values (an error where the code
// makes other calls with n).
func countOf(ds map[string]string, code string, scopes []map[string]psexpr.Value, ci int, call psexpr.Call) *analysis.Count {
	name := byVar(ds, call.Count)
	coll := strings.ToLower(call.Count)
	return &analysis.Count{Datasource: name, Eval: func(n int) (float64, float64, error) {
		// The count first: it hides a question of its name. The work:
		// psexpr.MaxWork for each count.
		env := psexpr.Env{Scopes: append([]map[string]psexpr.Value{{coll: psexpr.Counted(n)}}, scopes...)}
		calls, err := env.Eval(code)
		if err != nil {
			return 0, 0, err
		}
		if ci >= len(calls) {
			return 0, 0, errors.New("the code makes no " + call.Func + " call with this count")
		}
		c := calls[ci]
		if c.Func != call.Func || c.Collection != call.Collection || c.Operator != call.Operator || c.TrendOnly != call.TrendOnly || c.UseMax != call.UseMax || c.GreaterThan != call.GreaterThan || !strings.EqualFold(c.Count, call.Count) {
			return 0, 0, errors.New("the code makes another call with this count")
		}
		if c.Func == "StaticThreshold" {
			return c.Threshold, 0, nil
		}
		return c.Min, c.Max, nil
	}}
}

func childText(n *Node, name string) string {
	for _, c := range n.Children {
		if c.Name == name {
			return c.Text
		}
	}
	return ""
}

// varNames returns the names of the datasources ds by their
// COLLECTIONVARNAME (analysis.FoldKey), the first of each, for byVar.
func varNames(ds []analysis.Datasource) map[string]string {
	m := make(map[string]string, len(ds))
	for _, d := range ds {
		if d.Var == "" {
			continue
		}
		if _, ok := m[analysis.FoldKey(d.Var)]; !ok {
			m[analysis.FoldKey(d.Var)] = d.Name
		}
	}
	return m
}

// byVar returns the name of the first datasource whose COLLECTIONVARNAME
// is v (case-insensitive) among names (varNames), or "".
func byVar(names map[string]string, v string) string {
	if v == "" {
		return ""
	}
	return names[analysis.FoldKey(v)]
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
		// The path names the generated series (\\M\Object(instance)\Counter
		// with the left operand's machine and instance); a name that is
		// not a path leaves it to the name.
		expr, ok := n.Attr("EXPRESSIONPATH")
		if !ok || strings.TrimSpace(expr) == "" {
			expr = d.Name
		}
		if p, err := counterpath.Parse(strings.TrimSpace(expr)); err == nil {
			d.Path = p
		}
		f, reason := generated(childText(n, "CODE"))
		if reason != "" {
			return d, reason
		}
		d.Formula = f
		return d, ""
	}
	if !strings.EqualFold(strings.TrimSpace(typ), "CounterLog") && typ != "" {
		return d, "TYPE " + psexpr.Quote(typ) + " is neither CounterLog nor Generated"
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
// with package objre (the matcher analysis.Run may use: Go's regexp
// package adds 400 KB to the WebAssembly module).
func objectRegexp(rp string, hasInstance bool) (string, string) {
	rp = strings.TrimSpace(rp)
	if !strings.HasPrefix(rp, "\\") {
		return "", "REGULAREXPRESSIONCOUNTERPATH " + psexpr.Quote(rp) + " does not start with a backslash"
	}
	k := strings.LastIndexByte(rp, '\\')
	if k <= 0 {
		return "", "REGULAREXPRESSIONCOUNTERPATH " + psexpr.Quote(rp) + " has no counter part"
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
		return "", "REGULAREXPRESSIONCOUNTERPATH " + psexpr.Quote(rp) + " has an empty object"
	}
	if _, err := objre.Compile(obj); err != nil {
		return "", "REGULAREXPRESSIONCOUNTERPATH's object " + psexpr.Quote(obj) + ": " + err.Error()
	}
	return obj, ""
}
