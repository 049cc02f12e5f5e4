// Package psexpr evaluates the subset of PowerShell that PAL's threshold
// files use to compute a threshold: variables (question values, $True,
// $False), numbers with PowerShell's size suffixes (1KB = 1024 … 1PB),
// + - * / %, parentheses and $( ) subexpressions, comparisons (-eq -ne -gt
// -ge -lt -le), -and, -or, -not, [int] and [double] casts ([int] rounds
// half to even, as .NET does), [Math]::Round, If/ElseIf/Else blocks,
// assignments, and the calls StaticThreshold and StaticChartThreshold with
// their parameters, and the count of a counter collection ($X.Count, where
// the caller gives $X as Counted(n): PAL's processor count). Eval runs a
// CODE block and returns the calls it made.
//
// Everything else (loops, CreateAlert, method calls, counter collections
// used as values or indexed, VBScript) is an *Error that says what is not
// supported and where; the caller lists the threshold as unsupported.
//
// # Security
//
// The code is untrusted. Eval never executes a loop (there is none in the
// subset), bounds the code's length (MaxCode), its tokens (MaxTokens), the
// nesting of expressions and blocks (MaxDepth) and the bytes of strings
// its string members, comparisons and conversions go through (MaxWork, or
// Env.Work across several blocks: a member goes through its string once,
// without converting it), and never panics.
package psexpr

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Bounds of Eval.
const (
	MaxCode   = 64 << 10 // bytes of code
	MaxTokens = 20000    // tokens read
	MaxDepth  = 64       // nesting of parentheses, casts and blocks
	MaxCalls  = 64       // calls made by one block
	// MaxWork is the bytes of strings that one Eval's string members
	// (.ToUpper(), .Substring(), .Length …), comparisons and conversions
	// to numbers go through, unless Env.Work bounds them.
	MaxWork = 64 << 20
)

// Kind is a Value's type.
type Kind uint8

// The kinds of values.
const (
	Null Kind = iota
	Number
	Bool
	String
	// Collection is a counter collection (a datasource's
	// COLLECTIONVARNAME) of which only the count is known: $X.Count reads
	// it (Num); any other use is an error.
	Collection
)

// Value is a PowerShell value of the subset: a number, a boolean, a
// string, or a counter collection's count.
type Value struct {
	Kind Kind
	Num  float64
	Bool bool
	Str  string
}

// Num returns a number value.
func Num(f float64) Value { return Value{Kind: Number, Num: f} }

// Boolean returns a boolean value.
func Boolean(b bool) Value { return Value{Kind: Bool, Bool: b} }

// Str returns a string value.
func Str(s string) Value { return Value{Kind: String, Str: s} }

// Counted returns a counter collection of n instances: the code reads n
// as $X.Count (PAL's processor count is
// $CollectionOfProcessorPercentProcessorTime.Count - 1).
func Counted(n int) Value { return Value{Kind: Collection, Num: float64(n)} }

// Call is one call of StaticThreshold or StaticChartThreshold that a block
// made, with its parameters' values.
type Call struct {
	// Func is "StaticThreshold" or "StaticChartThreshold".
	Func string
	// Collection is the argument of -CollectionOfCounterInstances
	// without its "$", as written (PAL's COLLECTIONVARNAME; some contain
	// characters a PowerShell variable name cannot, such as "#").
	Collection string
	// Operator is StaticThreshold's -Operator, lower case, unquoted
	// ("gt", "ge", "lt", "le", "eq", or any other word as written).
	Operator  string
	Threshold float64
	TrendOnly bool
	// Min, Max, UseMax and GreaterThan are StaticChartThreshold's
	// -MinThreshold, -MaxThreshold, -UseMaxValue and
	// -IsOperatorGreaterThan (true when absent).
	Min, Max    float64
	UseMax      bool
	GreaterThan bool
	// Count is the collection (its variable's name as written, without
	// "$") whose .Count the block read before the call, "" for none: the
	// call's values depend on the log.
	Count string
}

// Error is code Eval cannot run: a construct outside the subset, a syntax
// error, an unknown variable, a bound crossed. Pos is the byte offset in
// the code.
type Error struct {
	Pos int
	Msg string
	// Var is the variable's name (without "$") when the error is an
	// unknown variable, "" otherwise.
	Var string
}

// Error says what is wrong and where.
func (e *Error) Error() string {
	return "psexpr: at byte " + strconv.Itoa(e.Pos) + ": " + e.Msg
}

type parser struct {
	s      string
	i      int
	vars   map[string]Value // lower-case names: the code's assignments
	scopes []map[string]Value
	work   *int // the bytes of strings that may still be gone through
	tokens int
	depth  int
	calls  []Call
	paren  int // open parentheses: newlines are white space inside
	err    *Error
	count  string // the collection whose .Count was read
}

// Eval runs code with the variables vars (names without "$", compared
// case-insensitively, as PowerShell does) and returns the calls it made
// (none when an If left them out).
func Eval(code string, vars map[string]Value) ([]Call, error) {
	lower := make(map[string]Value, len(vars))
	for k, v := range vars {
		lower[strings.ToLower(k)] = v
	}
	return Env{Scopes: []map[string]Value{lower}}.Eval(code)
}

// Env is what Env.Eval runs code with: the variables, and a bound on the
// work the code's strings cost. Code that evaluates many blocks with the
// same variables builds their maps once (Eval copies its map at each
// call).
type Env struct {
	// Scopes are the variables, looked up in order (a name in the
	// first scope that has it), their names lower case (strings.ToLower,
	// without "$"). Eval never changes them: the code's assignments go
	// to a scope of its own, looked up first.
	Scopes []map[string]Value
	// Work, when not nil, is the bytes of strings that Eval may go
	// through (string members, comparisons, conversions to numbers),
	// shared by the Evals given the same pointer: each subtracts what it
	// goes through, and fails once there is none left. nil: MaxWork for
	// each Eval.
	Work *int
}

// Eval runs code with e's variables and returns the calls it made (none
// when an If left them out), as Eval does.
func (e Env) Eval(code string) ([]Call, error) {
	if len(code) > MaxCode {
		return nil, &Error{Pos: MaxCode, Msg: "code longer than " + strconv.Itoa(MaxCode) + " bytes"}
	}
	work := e.Work
	if work == nil {
		w := MaxWork
		work = &w
	}
	p := &parser{s: code, vars: map[string]Value{}, scopes: e.Scopes, work: work}
	p.statements(true, false)
	if p.err != nil {
		return nil, p.err
	}
	return p.calls, nil
}

// builtins are the variables PowerShell defines, looked up last.
var builtins = map[string]Value{"true": Boolean(true), "false": Boolean(false), "null": {}}

// lookup returns the variable of the lower-case name.
func (p *parser) lookup(name string) (Value, bool) {
	if v, ok := p.vars[name]; ok {
		return v, true
	}
	for _, s := range p.scopes {
		if v, ok := s[name]; ok {
			return v, true
		}
	}
	v, ok := builtins[name]
	return v, ok
}

// use counts n bytes of strings gone through against the work left,
// failing at at when there is not as much left.
func (p *parser) use(at, n int) bool {
	if *p.work < n {
		*p.work = 0
		p.fail(at, "the code's strings cost more than the work allowed (the bytes that string members, comparisons and conversions go through: "+strconv.Itoa(MaxWork)+" for a block)")
		return false
	}
	*p.work -= n
	return true
}

// number is the function number, its string's bytes counted as work.
func (p *parser) number(v Value) (float64, bool) {
	if v.Kind == String && !p.use(p.i, len(v.Str)) {
		return 0, false
	}
	return number(v)
}

func (p *parser) fail(at int, msg string) {
	if p.err == nil {
		p.err = &Error{Pos: at, Msg: msg}
	}
}

// space skips blanks and comments; newlines too inside parentheses or
// when nl.
func (p *parser) space(nl bool) {
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == 0xA0:
			p.i++
		case c == '`' && p.i+1 < len(p.s) && (p.s[p.i+1] == '\n' || p.s[p.i+1] == '\r'):
			p.i += 2 // line continuation
		case c == '\r' || c == '\n':
			if !nl && p.paren == 0 {
				return
			}
			p.i++
		case c == '<' && strings.HasPrefix(p.s[p.i:], "<#"):
			k := strings.Index(p.s[p.i+2:], "#>")
			if k < 0 {
				p.i = len(p.s)
			} else {
				p.i += 2 + k + 2
			}
		case c == '#':
			for p.i < len(p.s) && p.s[p.i] != '\n' && p.s[p.i] != '\r' {
				p.i++
			}
		default:
			return
		}
	}
}

func (p *parser) tick() bool {
	p.tokens++
	if p.tokens > MaxTokens {
		p.fail(p.i, "more than "+strconv.Itoa(MaxTokens)+" tokens")
		return false
	}
	return p.err == nil
}

func (p *parser) enter() bool {
	p.depth++
	if p.depth > MaxDepth {
		p.fail(p.i, "nested deeper than "+strconv.Itoa(MaxDepth))
		return false
	}
	return true
}

func (p *parser) leave() { p.depth-- }

func isWordChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// word returns the identifier at p.i (letters, digits, _, -) without
// consuming it.
func (p *parser) word() string {
	k := p.i
	for k < len(p.s) && (isWordChar(p.s[k]) || k > p.i && p.s[k] == '-') {
		k++
	}
	return p.s[p.i:k]
}

// statements runs statements until '}' (inBlock) or the end.
func (p *parser) statements(exec, inBlock bool) {
	for p.err == nil {
		p.space(true)
		for p.i < len(p.s) && p.s[p.i] == ';' {
			p.i++
			p.space(true)
		}
		if p.i >= len(p.s) {
			if inBlock {
				p.fail(p.i, "expected '}', found the end of the code")
			}
			return
		}
		if p.s[p.i] == '}' {
			if !inBlock {
				p.fail(p.i, "unexpected '}'")
			}
			return
		}
		if !p.tick() {
			return
		}
		p.statement(exec)
		if p.err != nil {
			return
		}
		p.space(false)
		if p.i < len(p.s) {
			switch c := p.s[p.i]; c {
			case '\n', '\r', ';', '}':
			default:
				p.fail(p.i, "expected the end of the statement, found "+Quote(p.s[p.i:p.i+1]))
			}
		}
	}
}

func (p *parser) statement(exec bool) {
	at := p.i
	c := p.s[p.i]
	switch {
	case c == '$' && p.i+1 < len(p.s) && p.s[p.i+1] != '(':
		p.assignment(exec, "")
	case c == '[':
		typ := p.typeName()
		if p.err != nil {
			return
		}
		p.space(false)
		if p.i < len(p.s) && p.s[p.i] == '$' && p.isAssignment() {
			p.assignment(exec, typ)
			return
		}
		p.fail(at, "expected a typed assignment after ["+typ+"]")
	case isWordChar(c):
		w := p.word()
		switch strings.ToLower(w) {
		case "if":
			p.ifStatement(exec)
		case "staticthreshold":
			p.i += len(w)
			p.call(exec, "StaticThreshold")
		case "staticchartthreshold":
			p.i += len(w)
			p.call(exec, "StaticChartThreshold")
		case "switch":
			p.i += len(w)
			p.switchStatement(exec)
		case "for", "foreach", "while", "do", "function", "break", "continue", "return", "trap", "try", "dim":
			p.fail(at, "the statement "+w+" is not supported (no loops or functions are run)")
		case "createalert":
			p.fail(at, "CreateAlert (a hand-written alert) is not supported")
		default:
			if strings.EqualFold(w, "else") || strings.EqualFold(w, "elseif") {
				p.fail(at, w+" without If")
				return
			}
			p.fail(at, "the command "+Quote(w)+" is not supported")
		}
	default:
		p.fail(at, "expected a statement, found "+Quote(p.s[p.i:p.i+1]))
	}
}

// isAssignment says whether the "$name" at p.i is followed by "=".
func (p *parser) isAssignment() bool {
	k := p.i + 1
	for k < len(p.s) && (isWordChar(p.s[k]) || p.s[k] == ':') {
		k++
	}
	for k < len(p.s) && (p.s[k] == ' ' || p.s[k] == '\t') {
		k++
	}
	return k < len(p.s) && p.s[k] == '=' && (k+1 >= len(p.s) || p.s[k+1] != '=')
}

func (p *parser) varName() string {
	at := p.i
	p.i++ // $
	k := p.i
	for k < len(p.s) && (isWordChar(p.s[k]) || p.s[k] == ':') {
		k++
	}
	if k == p.i {
		p.fail(at, "expected a variable name after '$'")
		return ""
	}
	name := p.s[p.i:k]
	p.i = k
	return name
}

func (p *parser) assignment(exec bool, typ string) {
	at := p.i
	if !p.isAssignment() {
		p.fail(at, "expected an assignment or a call (an expression alone is not supported)")
		return
	}
	name := p.varName()
	p.space(false)
	p.i++ // =
	p.space(true)
	v := p.expr(exec)
	if p.err != nil || !exec {
		return
	}
	if typ != "" {
		v = p.cast(at, typ, v)
	}
	switch strings.ToLower(name) {
	case "true", "false", "null":
		p.fail(at, "cannot assign to $"+name)
		return
	}
	p.vars[strings.ToLower(name)] = v
}

func (p *parser) block(exec bool) {
	p.space(true)
	if p.i >= len(p.s) || p.s[p.i] != '{' {
		p.fail(p.i, "expected '{'")
		return
	}
	if !p.enter() {
		return
	}
	p.i++
	saved := p.paren
	p.paren = 0
	p.statements(exec, true)
	p.paren = saved
	p.leave()
	if p.err == nil {
		p.i++ // }
	}
}

func (p *parser) condition(exec bool) bool {
	p.space(true)
	if p.i >= len(p.s) || p.s[p.i] != '(' {
		p.fail(p.i, "expected '(' after If")
		return false
	}
	p.i++
	p.paren++
	if !p.enter() {
		return false
	}
	v := p.expr(exec)
	p.leave()
	p.space(true)
	if p.err == nil && (p.i >= len(p.s) || p.s[p.i] != ')') {
		p.fail(p.i, "expected ')' to end the If condition")
	}
	p.paren--
	p.i++
	return exec && truthy(v)
}

func (p *parser) ifStatement(exec bool) {
	p.i += 2
	taken := false
	cond := p.condition(exec)
	p.block(exec && cond)
	taken = cond
	for p.err == nil {
		save := p.i
		p.space(true)
		w := strings.ToLower(p.word())
		switch w {
		case "elseif":
			p.i += len(w)
			cond := p.condition(exec && !taken)
			p.block(exec && !taken && cond)
			taken = taken || cond
			continue
		case "else":
			p.i += len(w)
			p.block(exec && !taken)
		default:
			p.i = save
		}
		return
	}
}

func truthy(v Value) bool {
	switch v.Kind {
	case Number:
		return v.Num != 0
	case Bool:
		return v.Bool
	case String:
		return v.Str != ""
	}
	return false
}

// call reads a StaticThreshold or StaticChartThreshold call's parameters
// up to the end of the statement.
func (p *parser) call(exec bool, fn string) {
	c := Call{Func: fn, GreaterThan: true}
	seen := map[string]bool{}
	for p.err == nil {
		p.space(false)
		if p.i >= len(p.s) || p.s[p.i] == '\n' || p.s[p.i] == '\r' || p.s[p.i] == ';' || p.s[p.i] == '}' {
			break
		}
		if !p.tick() {
			return
		}
		at := p.i
		if p.s[p.i] != '-' {
			p.fail(at, "expected a parameter (-Name) of "+fn+", found "+Quote(p.s[p.i:p.i+1]))
			return
		}
		p.i++
		param := strings.ToLower(p.word())
		p.i += len(param)
		if seen[param] {
			p.fail(at, "parameter -"+param+" given twice")
			return
		}
		seen[param] = true
		p.space(false)
		switch param {
		case "collectionofcounterinstances":
			if p.i >= len(p.s) || p.s[p.i] != '$' {
				p.fail(p.i, "expected $variable after -CollectionOfCounterInstances")
				return
			}
			k := p.i + 1
			for k < len(p.s) && !isSpaceByte(p.s[k]) && p.s[k] != ';' && p.s[k] != '}' {
				k++
			}
			c.Collection = p.s[p.i+1 : k]
			if c.Collection == "" {
				p.fail(p.i, "expected a variable name after '$'")
				return
			}
			p.i = k
		case "operator":
			c.Operator = strings.ToLower(p.bareword())
			if c.Operator == "" {
				p.fail(p.i, "expected an operator (gt, ge, lt, le, eq) after -Operator")
				return
			}
		case "threshold", "minthreshold", "maxthreshold":
			v := p.primary(exec)
			if p.err != nil {
				return
			}
			if exec {
				n, ok := p.number(v)
				if !ok {
					p.fail(at, "-"+param+" is not a number")
					return
				}
				switch param {
				case "threshold":
					c.Threshold = n
				case "minthreshold":
					c.Min = n
				default:
					c.Max = n
				}
			}
		case "istrendonly", "usemaxvalue", "isoperatorgreaterthan":
			b := true
			if p.i < len(p.s) && p.s[p.i] == '$' {
				v := p.primary(exec)
				if p.err != nil {
					return
				}
				b = truthy(v)
			}
			switch param {
			case "istrendonly":
				c.TrendOnly = b
			case "usemaxvalue":
				c.UseMax = b
			default:
				c.GreaterThan = b
			}
		default:
			p.fail(at, "unknown parameter -"+param+" of "+fn)
			return
		}
	}
	if p.err != nil {
		return
	}
	need := []string{"collectionofcounterinstances", "operator", "threshold"}
	if fn == "StaticChartThreshold" {
		need = []string{"collectionofcounterinstances", "minthreshold", "maxthreshold"}
	}
	for _, n := range need {
		if !seen[n] {
			p.fail(p.i, fn+" without -"+paramNames[n])
			return
		}
	}
	if !exec {
		return
	}
	if len(p.calls) >= MaxCalls {
		p.fail(p.i, "more than "+strconv.Itoa(MaxCalls)+" calls")
		return
	}
	c.Count = p.count
	p.calls = append(p.calls, c)
}

var paramNames = map[string]string{
	"collectionofcounterinstances": "CollectionOfCounterInstances",
	"operator":                     "Operator",
	"threshold":                    "Threshold",
	"minthreshold":                 "MinThreshold",
	"maxthreshold":                 "MaxThreshold",
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// bareword reads 'gt', "gt" or gt.
func (p *parser) bareword() string {
	if p.i < len(p.s) && (p.s[p.i] == '\'' || p.s[p.i] == '"') {
		q := p.s[p.i]
		k := strings.IndexByte(p.s[p.i+1:], q)
		if k < 0 {
			p.fail(p.i, "unterminated string")
			return ""
		}
		w := p.s[p.i+1 : p.i+1+k]
		p.i += k + 2
		return w
	}
	w := p.word()
	p.i += len(w)
	return w
}

// The expression grammar, from the lowest precedence up. PowerShell's
// comparison operators bind looser than arithmetic, -and and -or looser
// still (and equal to each other, left to right).

func (p *parser) expr(exec bool) Value {
	if !p.enter() {
		return Value{}
	}
	defer p.leave()
	v := p.comparison(exec)
	for p.err == nil {
		p.space(false)
		op := p.dashOp()
		if op != "and" && op != "or" {
			return v
		}
		p.i += 1 + len(op)
		p.space(true)
		w := p.comparison(exec)
		if op == "and" {
			v = Boolean(truthy(v) && truthy(w))
		} else {
			v = Boolean(truthy(v) || truthy(w))
		}
	}
	return v
}

// dashOp returns the operator name after a '-' at p.i ("" if none).
func (p *parser) dashOp() string {
	if p.i >= len(p.s) || p.s[p.i] != '-' {
		return ""
	}
	k := p.i + 1
	for k < len(p.s) && (p.s[k] >= 'a' && p.s[k] <= 'z' || p.s[k] >= 'A' && p.s[k] <= 'Z') {
		k++
	}
	return strings.ToLower(p.s[p.i+1 : k])
}

func (p *parser) comparison(exec bool) Value {
	at := p.i
	v := p.additive(exec)
	for p.err == nil {
		p.space(false)
		op := p.dashOp()
		switch op {
		case "eq", "ne", "gt", "ge", "lt", "le", "ieq", "ine", "igt", "ige", "ilt", "ile":
		case "":
			return v
		case "and", "or":
			return v
		default:
			p.fail(p.i, "the operator -"+op+" is not supported")
			return v
		}
		p.i += 1 + len(op)
		p.space(true)
		w := p.additive(exec)
		if p.err != nil || !exec {
			continue
		}
		v = p.compare(at, strings.TrimPrefix(op, "i"), v, w)
	}
	return v
}

// compare compares as PowerShell does: the right operand converted to the
// left one's type; strings case-insensitively.
func (p *parser) compare(at int, op string, a, b Value) Value {
	var c int
	switch a.Kind {
	case Null:
		if op != "eq" && op != "ne" {
			p.fail(at, "comparison of $null")
			return Value{}
		}
		eq := b.Kind == Null
		return Boolean(eq == (op == "eq"))
	case Bool:
		x, y := a.Bool, truthy(b)
		if b.Kind == String {
			// [bool]"False" is True in PowerShell; a string compared
			// with a boolean converts to a boolean that way.
			y = b.Str != ""
		}
		switch {
		case x == y:
			c = 0
		case !x:
			c = -1
		default:
			c = 1
		}
	case Number:
		y, ok := p.number(b)
		if !ok {
			p.fail(at, "cannot compare a number with "+quoteShort(b.Str))
			return Value{}
		}
		switch {
		case a.Num < y:
			c = -1
		case a.Num > y:
			c = 1
		}
	case String:
		y := str(b)
		if !p.use(at, len(a.Str)+len(y)) {
			return Value{}
		}
		c = strings.Compare(strings.ToLower(a.Str), strings.ToLower(y))
	}
	switch op {
	case "eq":
		return Boolean(c == 0)
	case "ne":
		return Boolean(c != 0)
	case "gt":
		return Boolean(c > 0)
	case "ge":
		return Boolean(c >= 0)
	case "lt":
		return Boolean(c < 0)
	}
	return Boolean(c <= 0)
}

func str(v Value) string {
	switch v.Kind {
	case String:
		return v.Str
	case Bool:
		if v.Bool {
			return "True"
		}
		return "False"
	case Number:
		return strconv.FormatFloat(v.Num, 'g', -1, 64)
	}
	return ""
}

// number converts a value to a number as PowerShell's arithmetic does.
func number(v Value) (float64, bool) {
	switch v.Kind {
	case Number:
		return v.Num, true
	case Bool:
		if v.Bool {
			return 1, true
		}
		return 0, true
	case Null:
		return 0, true
	}
	s := strings.TrimSpace(v.Str)
	if s == "" {
		return 0, true
	}
	if n, ok := ParseNumber(s); ok {
		return n, true
	}
	return 0, false
}

func (p *parser) additive(exec bool) Value {
	v := p.multiplicative(exec)
	for p.err == nil {
		p.space(false)
		if p.i >= len(p.s) {
			return v
		}
		c := p.s[p.i]
		if c != '+' && c != '-' || c == '-' && p.dashOp() != "" {
			return v
		}
		at := p.i
		p.i++
		p.space(true)
		w := p.multiplicative(exec)
		if exec && p.err == nil {
			v = p.arith(at, c, v, w)
		}
	}
	return v
}

func (p *parser) multiplicative(exec bool) Value {
	v := p.unary(exec)
	for p.err == nil {
		p.space(false)
		if p.i >= len(p.s) {
			return v
		}
		c := p.s[p.i]
		if c != '*' && c != '/' && c != '%' {
			return v
		}
		at := p.i
		p.i++
		p.space(true)
		w := p.unary(exec)
		if exec && p.err == nil {
			v = p.arith(at, c, v, w)
		}
	}
	return v
}

func (p *parser) arith(at int, op byte, a, b Value) Value {
	if a.Kind == String && (op == '+' || op == '*') {
		p.fail(at, "string arithmetic ('"+string(op)+"' on a string) is not supported")
		return Value{}
	}
	x, ok1 := p.number(a)
	y, ok2 := p.number(b)
	if !ok1 || !ok2 {
		p.fail(at, "arithmetic on a value that is not a number")
		return Value{}
	}
	var r float64
	switch op {
	case '+':
		r = x + y
	case '-':
		r = x - y
	case '*':
		r = x * y
	case '/':
		if y == 0 {
			p.fail(at, "division by zero")
			return Value{}
		}
		r = x / y
	case '%':
		if y == 0 {
			p.fail(at, "division by zero")
			return Value{}
		}
		r = math.Mod(x, y)
	}
	if math.IsInf(r, 0) || math.IsNaN(r) {
		p.fail(at, "arithmetic overflow")
		return Value{}
	}
	return Num(r)
}

func (p *parser) unary(exec bool) Value {
	if !p.enter() {
		return Value{}
	}
	defer p.leave()
	p.space(false)
	if p.i >= len(p.s) {
		p.fail(p.i, "expected a value, found the end of the code")
		return Value{}
	}
	at := p.i
	switch c := p.s[p.i]; {
	case c == '-' && p.dashOp() == "not":
		p.i += 4
		v := p.unary(exec)
		return Boolean(!truthy(v))
	case c == '!':
		p.i++
		v := p.unary(exec)
		return Boolean(!truthy(v))
	case c == '-' || c == '+':
		p.i++
		v := p.unary(exec)
		if !exec || p.err != nil {
			return v
		}
		n, ok := p.number(v)
		if !ok {
			p.fail(at, "unary "+string(c)+" on a value that is not a number")
			return Value{}
		}
		if c == '-' {
			n = -n
		}
		return Num(n)
	case c == '[':
		save := p.i
		typ := p.typeName()
		if p.err != nil {
			return Value{}
		}
		if typ == "math" {
			p.i = save
			return p.primary(exec)
		}
		v := p.unary(exec)
		if !exec || p.err != nil {
			return v
		}
		return p.cast(at, typ, v)
	}
	return p.primary(exec)
}

// typeName reads [type] and returns the type in lower case.
func (p *parser) typeName() string {
	at := p.i
	k := strings.IndexByte(p.s[p.i:], ']')
	if k < 0 || k > 40 {
		p.fail(at, "expected a type name and ']' after '['")
		return ""
	}
	typ := strings.ToLower(strings.TrimSpace(p.s[p.i+1 : p.i+k]))
	typ = strings.TrimPrefix(typ, "system.")
	p.i += k + 1
	switch typ {
	case "int", "int32", "int64", "long", "double", "decimal", "string", "bool", "math":
		return typ
	}
	p.fail(at, "the type ["+typ+"] is not supported")
	return ""
}

// cast converts v to typ as PowerShell does: integer types round half to
// even and refuse values outside their range.
func (p *parser) cast(at int, typ string, v Value) Value {
	switch typ {
	case "string":
		return Str(str(v))
	case "bool":
		return Boolean(truthy(v))
	}
	n, ok := p.number(v)
	if !ok {
		p.fail(at, "cannot convert "+quoteShort(v.Str)+" to ["+typ+"]")
		return Value{}
	}
	switch typ {
	case "int", "int32":
		n = math.RoundToEven(n)
		if n < math.MinInt32 || n > math.MaxInt32 {
			p.fail(at, "value out of the range of [int]")
			return Value{}
		}
	case "int64", "long":
		n = math.RoundToEven(n)
		if n < -(1<<63) || n >= 1<<63 {
			p.fail(at, "value out of the range of [long]")
			return Value{}
		}
	}
	return Num(n)
}

func (p *parser) primary(exec bool) Value {
	if !p.tick() {
		return Value{}
	}
	p.space(false)
	if p.i >= len(p.s) {
		p.fail(p.i, "expected a value, found the end of the code")
		return Value{}
	}
	at := p.i
	c := p.s[p.i]
	switch {
	case c == '(' || c == '$' && p.i+1 < len(p.s) && p.s[p.i+1] == '(':
		if c == '$' {
			p.i++
		}
		p.i++
		p.paren++
		v := p.expr(exec)
		p.space(true)
		if p.err == nil && (p.i >= len(p.s) || p.s[p.i] != ')') {
			p.fail(p.i, "expected ')'")
		}
		p.paren--
		p.i++
		return p.member(v, exec)
	case c == '$':
		name := p.varName()
		if p.err != nil {
			return Value{}
		}
		if p.i < len(p.s) && !isSpaceByte(p.s[p.i]) && strings.IndexByte(")};,+-*/%.[", p.s[p.i]) < 0 {
			p.fail(p.i, "unexpected "+Quote(p.s[p.i:p.i+1])+" after $"+name)
			return Value{}
		}
		if strings.HasPrefix(strings.ToLower(p.s[p.i:]), ".count") && (p.i+6 >= len(p.s) || !isWordChar(p.s[p.i+6])) {
			c, ok := p.lookup(strings.ToLower(name))
			if !ok || c.Kind != Collection {
				p.fail(at, "$"+name+".Count: $"+name+" is no counter collection of the analysis (a loop's or PAL's own variable)")
				return Value{}
			}
			p.i += len(".count")
			if exec {
				if p.count != "" && !strings.EqualFold(p.count, name) {
					p.fail(at, "$"+name+".Count: the counts of two collections ($"+p.count+", $"+name+") are not supported")
					return Value{}
				}
				p.count = name
			}
			return p.member(Num(c.Num), exec)
		}
		var v Value
		if exec {
			var ok bool
			v, ok = p.lookup(strings.ToLower(name))
			if !ok {
				p.fail(at, "unknown variable $"+name+" (a counter collection or a value only PAL computes)")
				p.err.Var = name
				return Value{}
			}
			if v.Kind == Collection {
				p.fail(at, "the counter collection $"+name+" used as a value (only its .Count is read)")
				return Value{}
			}
		}
		return p.member(v, exec)
	case c == '\'' || c == '"':
		q := c
		k := strings.IndexByte(p.s[p.i+1:], q)
		if k < 0 {
			p.fail(at, "unterminated string")
			return Value{}
		}
		s := p.s[p.i+1 : p.i+1+k]
		if q == '"' && (strings.ContainsAny(s, "$`")) {
			p.fail(at, "expandable strings are not supported")
			return Value{}
		}
		p.i += k + 2
		return p.member(Str(s), exec)
	case c >= '0' && c <= '9' || c == '.':
		k := p.i
		for k < len(p.s) && (isWordChar(p.s[k]) || p.s[k] == '.') {
			k++
		}
		n, ok := ParseNumber(p.s[p.i:k])
		if !ok {
			p.fail(at, "malformed number "+Quote(p.s[p.i:k]))
			return Value{}
		}
		p.i = k
		return Num(n)
	case c == '[':
		typ := p.typeName()
		if p.err != nil {
			return Value{}
		}
		if typ != "math" || !strings.HasPrefix(strings.ToLower(p.s[p.i:]), "::round(") {
			p.fail(at, "only [Math]::Round is supported")
			return Value{}
		}
		p.i += len("::round(")
		p.paren++
		x := p.expr(exec)
		digits := Num(0)
		p.space(true)
		if p.err == nil && p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			digits = p.expr(exec)
			p.space(true)
		}
		if p.err == nil && (p.i >= len(p.s) || p.s[p.i] != ')') {
			p.fail(p.i, "expected ')' to end [Math]::Round")
		}
		p.paren--
		p.i++
		if !exec || p.err != nil {
			return Value{}
		}
		n, ok1 := p.number(x)
		d, ok2 := p.number(digits)
		if !ok1 || !ok2 || d < 0 || d > 15 || d != math.Trunc(d) {
			p.fail(at, "[Math]::Round of a value that is not a number, or with digits outside 0..15")
			return Value{}
		}
		return Num(roundHalfEven(n, int(d)))
	}
	p.fail(at, "expected a value, found "+Quote(p.s[p.i:p.i+1]))
	return Value{}
}

// member applies the string methods and properties the files use
// (.ToUpper(), .ToLower(), .Substring(start[, length]), .Length) and
// refuses any other member access or indexing.
func (p *parser) member(v Value, exec bool) Value {
	for p.err == nil && p.i < len(p.s) && (p.s[p.i] == '.' || p.s[p.i] == '[') {
		at := p.i
		if p.s[p.i] == '[' {
			p.fail(at, "indexing is not supported")
			return Value{}
		}
		if !p.tick() {
			return Value{}
		}
		p.i++
		name := p.word()
		p.i += len(name)
		if exec && v.Kind != String {
			p.fail(at, "the member ."+name+" of a value that is not a string is not supported")
			return Value{}
		}
		switch strings.ToLower(name) {
		case "length":
			if exec && !p.use(at, len(v.Str)) {
				return Value{}
			}
			v = Num(float64(utf8.RuneCountInString(v.Str)))
			continue
		case "toupper", "tolower", "substring", "trim":
		default:
			p.fail(at, "the member ."+name+" is not supported")
			return Value{}
		}
		if p.i >= len(p.s) || p.s[p.i] != '(' {
			p.fail(p.i, "expected '(' after ."+name)
			return Value{}
		}
		p.i++
		p.paren++
		var args []Value
		p.space(true)
		for p.err == nil && p.i < len(p.s) && p.s[p.i] != ')' {
			if len(args) > 0 {
				if p.s[p.i] != ',' {
					p.fail(p.i, "expected ',' or ')' in the arguments of ."+name)
					break
				}
				p.i++
			}
			args = append(args, p.expr(exec))
			p.space(true)
		}
		if p.err == nil && p.i >= len(p.s) {
			p.fail(p.i, "expected ')' to end the arguments of ."+name)
		}
		p.paren--
		p.i++
		if p.err != nil || !exec {
			continue
		}
		// Each member goes through its string once (.Trim() only
		// through the white space it removes).
		switch strings.ToLower(name) {
		case "toupper":
			if !p.use(at, len(v.Str)) {
				return Value{}
			}
			v = Str(strings.ToUpper(v.Str))
		case "tolower":
			if !p.use(at, len(v.Str)) {
				return Value{}
			}
			v = Str(strings.ToLower(v.Str))
		case "trim":
			t := strings.TrimSpace(v.Str)
			if !p.use(at, len(v.Str)-len(t)) {
				return Value{}
			}
			v = Str(t)
		case "substring":
			if len(args) < 1 || len(args) > 2 {
				p.fail(at, ".Substring takes 1 or 2 arguments")
				return Value{}
			}
			if !p.use(at, len(v.Str)) {
				return Value{}
			}
			runes := float64(utf8.RuneCountInString(v.Str))
			start, ok := p.number(args[0])
			n := runes - start
			if len(args) == 2 {
				var ok2 bool
				n, ok2 = p.number(args[1])
				ok = ok && ok2
			}
			if !ok || start < 0 || n < 0 || start+n > runes || start != math.Trunc(start) || n != math.Trunc(n) {
				p.fail(at, ".Substring out of the string's range (PowerShell fails there too)")
				return Value{}
			}
			v = Str(runeSlice(v.Str, int(start), int(start+n)))
		}
		if len(args) > 0 && strings.ToLower(name) != "substring" {
			p.fail(at, "."+name+" takes no argument")
			return Value{}
		}
	}
	return v
}

// runeSlice returns the runes from..to of s, as string([]rune(s)[from:to])
// does (an invalid byte is a rune, U+FFFD), without converting all of s.
func runeSlice(s string, from, to int) string {
	i := 0
	for k := 0; k < from; k++ {
		_, n := utf8.DecodeRuneInString(s[i:])
		i += n
	}
	start, valid := i, true
	for k := from; k < to; k++ {
		r, n := utf8.DecodeRuneInString(s[i:])
		valid = valid && !(r == utf8.RuneError && n == 1)
		i += n
	}
	if valid {
		return s[start:i]
	}
	return string([]rune(s[start:i]))
}

// quoteShort is Quote of s, or of its first 100 bytes and "…" when
// longer: an error quotes a value that may be megabytes long.
func quoteShort(s string) string {
	if len(s) <= 100 {
		return Quote(s)
	}
	k := 100
	for k > 0 && !utf8.RuneStart(s[k]) {
		k--
	}
	return Quote(s[:k]) + "…"
}

// switchStatement runs switch (value) { label { … } … default { … } }
// with literal labels: every clause whose label equals the value (-eq, so
// strings case-insensitively) runs, default when none did.
func (p *parser) switchStatement(exec bool) {
	at := p.i
	p.space(true)
	if p.i >= len(p.s) || p.s[p.i] != '(' {
		p.fail(p.i, "expected '(' after switch")
		return
	}
	v := p.primary(exec)
	p.space(true)
	if p.err != nil {
		return
	}
	if p.i >= len(p.s) || p.s[p.i] != '{' {
		p.fail(p.i, "expected '{' after switch's value (options such as -regex are not supported)")
		return
	}
	if !p.enter() {
		return
	}
	defer p.leave()
	p.i++
	matched := false
	for p.err == nil {
		p.space(true)
		if p.i >= len(p.s) {
			p.fail(at, "expected '}' to end the switch")
			return
		}
		if p.s[p.i] == '}' {
			p.i++
			return
		}
		if !p.tick() {
			return
		}
		if w := p.word(); strings.EqualFold(w, "default") {
			p.i += len(w)
			// Default runs after the other clauses were tried; the files
			// write it last.
			p.block(exec && !matched)
			continue
		}
		c := p.s[p.i]
		if c != '\'' && c != '"' && !(c >= '0' && c <= '9') {
			p.fail(p.i, "expected a literal switch label (a string or a number)")
			return
		}
		label := p.primary(exec)
		if p.err != nil {
			return
		}
		hit := false
		if exec {
			hit = truthy(p.compare(p.i, "eq", v, label))
		}
		matched = matched || hit
		p.block(exec && hit)
	}
}

// roundHalfEven rounds n to d decimals, half to even ([Math]::Round's
// default).
func roundHalfEven(n float64, d int) float64 {
	if d == 0 {
		return math.RoundToEven(n)
	}
	s := strconv.FormatFloat(n, 'f', -1, 64)
	dot := strings.IndexByte(s, '.')
	if dot < 0 || len(s)-dot-1 <= d {
		return n
	}
	pow := math.Pow(10, float64(d))
	r := math.RoundToEven(n * pow)
	// n*pow may be a hair off .5; decide from the decimal digits.
	tail := s[dot+1+d:]
	if tail[0] == '5' && strings.Trim(tail[1:], "0") == "" {
		fl := math.Trunc(n * pow)
		if math.Abs(n*pow-fl) > 0.4 {
			if math.Mod(math.Abs(fl), 2) == 0 {
				r = fl
			} else {
				r = fl + math.Copysign(1, n)
			}
		}
	}
	return r / pow
}
