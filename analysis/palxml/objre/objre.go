// Package objre is a small regular-expression matcher for the object
// names of PAL's regular-expression datasources
// (ISCOUNTEROBJECTREGULAREXPRESSION: all 326 of PAL's are
// "(MSSQL|SQLServer).*:Object"). It matches case-insensitively and
// unanchored, as PAL does, with the syntax of Go's regexp package for
// what it supports: literals, ".", character classes ([a-z], [^…], \d \w
// \s and their negations), groups ((…) and (?:…)), alternation, the
// quantifiers *, + and ? (lazy forms too), and the anchors ^ and $.
// Everything else (counted repetition, flags, backreferences, Unicode
// classes) is an *Error naming it.
//
// It exists because package regexp adds about 400 KB to the WebAssembly
// module, whose budget for all of perfcalc analyze is 200 KB.
//
// # Security
//
// Patterns and names are untrusted. Compile bounds the pattern's length
// (MaxPattern), nesting (MaxDepth) and program (MaxProgram); MatchString
// simulates the automaton without backtracking, in time proportional to
// the name's length times the program's size.
package objre

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Bounds of Compile.
const (
	MaxPattern = 1000
	MaxDepth   = 100
	MaxProgram = 5000
)

// Error is a pattern Compile refuses: what and where (a byte offset).
type Error struct {
	Pos int
	Msg string
}

// Error says what is wrong and where.
func (e *Error) Error() string {
	return "objre: at byte " + strconv.Itoa(e.Pos) + ": " + e.Msg
}

type op uint8

const (
	opChar  op = iota // consume a rune in set
	opSplit           // continue at x and y
	opJmp             // continue at x
	opBegin           // assert the start of the name
	opEnd             // assert the end of the name
	opMatch
)

// class is a set of runes: ranges, negated or not, matched with case
// folding.
type class struct {
	ranges []rune // lo, hi pairs
	neg    bool
	any    bool // "." : any rune but \n
}

func (c *class) has(r rune) bool {
	if c.any {
		return r != '\n'
	}
	in := c.in(r)
	if !in {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if c.in(f) {
				in = true
				break
			}
		}
	}
	return in != c.neg
}

func (c *class) in(r rune) bool {
	for i := 0; i < len(c.ranges); i += 2 {
		if c.ranges[i] <= r && r <= c.ranges[i+1] {
			return true
		}
	}
	return false
}

type inst struct {
	op   op
	x, y int
	set  *class
}

// Regexp is a compiled pattern, safe for concurrent use.
type Regexp struct {
	expr string
	prog []inst
}

// String returns the pattern.
func (re *Regexp) String() string { return re.expr }

// node is the parsed pattern.
type node struct {
	kind  byte // 'c' class, '^', '$', '|' alternation, '+' concatenation, '*', 'p' (plus), '?' , 'e' empty
	set   *class
	subs  []*node
	start int
}

type parser struct {
	s     string
	i     int
	depth int
	err   *Error
}

func (p *parser) fail(at int, msg string) {
	if p.err == nil {
		p.err = &Error{Pos: at, Msg: msg}
	}
}

// Compile parses a pattern.
func Compile(expr string) (*Regexp, error) {
	if len(expr) > MaxPattern {
		return nil, &Error{Pos: MaxPattern, Msg: "pattern longer than " + strconv.Itoa(MaxPattern) + " bytes"}
	}
	if !utf8.ValidString(expr) {
		return nil, &Error{Pos: 0, Msg: "pattern not valid UTF-8"}
	}
	p := &parser{s: expr}
	n := p.alternation()
	if p.err == nil && p.i < len(p.s) {
		p.fail(p.i, "unexpected ')'")
	}
	if p.err != nil {
		return nil, p.err
	}
	re := &Regexp{expr: expr}
	if !re.compile(n) {
		return nil, &Error{Pos: 0, Msg: "pattern too large (more than " + strconv.Itoa(MaxProgram) + " instructions)"}
	}
	re.prog = append(re.prog, inst{op: opMatch})
	return re, nil
}

func (p *parser) alternation() *node {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > MaxDepth {
		p.fail(p.i, "nested deeper than "+strconv.Itoa(MaxDepth))
		return nil
	}
	alt := &node{kind: '|', start: p.i}
	for p.err == nil {
		alt.subs = append(alt.subs, p.concatenation())
		if p.i < len(p.s) && p.s[p.i] == '|' {
			p.i++
			continue
		}
		break
	}
	if len(alt.subs) == 1 {
		return alt.subs[0]
	}
	return alt
}

func (p *parser) concatenation() *node {
	cat := &node{kind: '+', start: p.i}
	for p.err == nil && p.i < len(p.s) && p.s[p.i] != '|' && p.s[p.i] != ')' {
		a := p.atom()
		if p.err != nil {
			return cat
		}
		if p.i < len(p.s) && (p.s[p.i] == '*' || p.s[p.i] == '+' || p.s[p.i] == '?') {
			q := p.s[p.i]
			if a.kind == '^' || a.kind == '$' {
				p.fail(p.i, "quantifier after an anchor")
				return cat
			}
			if q == '+' {
				q = 'p'
			}
			a = &node{kind: q, subs: []*node{a}, start: p.i}
			p.i++
			if p.i < len(p.s) && p.s[p.i] == '?' { // lazy: same match or not
				p.i++
			}
			if p.i < len(p.s) && (p.s[p.i] == '*' || p.s[p.i] == '+' || p.s[p.i] == '?') {
				p.fail(p.i, "invalid nested repetition operator")
				return cat
			}
		}
		if p.i < len(p.s) && p.s[p.i] == '{' {
			p.fail(p.i, "counted repetition {n,m} is not supported")
			return cat
		}
		cat.subs = append(cat.subs, a)
	}
	return cat
}

func (p *parser) atom() *node {
	at := p.i
	c := p.s[p.i]
	switch c {
	case '(':
		p.i++
		if p.i < len(p.s) && p.s[p.i] == '?' {
			if p.i+1 < len(p.s) && p.s[p.i+1] == ':' {
				p.i += 2
			} else {
				p.fail(at, "group flags and named groups are not supported")
				return nil
			}
		}
		n := p.alternation()
		if p.err != nil {
			return nil
		}
		if p.i >= len(p.s) || p.s[p.i] != ')' {
			p.fail(at, "missing closing )")
			return nil
		}
		p.i++
		return n
	case '*', '+', '?':
		p.fail(at, "missing argument to repetition operator "+string(c))
		return nil
	case '.':
		p.i++
		return &node{kind: 'c', set: &class{any: true}, start: at}
	case '^', '$':
		p.i++
		return &node{kind: c, start: at}
	case '[':
		return p.class()
	case '\\':
		set := p.escape(false)
		if set == nil {
			return nil
		}
		return &node{kind: 'c', set: set, start: at}
	}
	r, n := utf8.DecodeRuneInString(p.s[p.i:])
	p.i += n
	return &node{kind: 'c', set: &class{ranges: []rune{r, r}}, start: at}
}

// escape reads \x at p.i: a class for \d \w \s (and negations), else the
// escaped punctuation or control character.
func (p *parser) escape(inClass bool) *class {
	at := p.i
	p.i++
	if p.i >= len(p.s) {
		p.fail(at, "trailing backslash at end of expression")
		return nil
	}
	c := p.s[p.i]
	p.i++
	switch c {
	case 'd':
		return &class{ranges: []rune{'0', '9'}}
	case 'D':
		return &class{ranges: []rune{'0', '9'}, neg: true}
	case 'w':
		return &class{ranges: []rune{'0', '9', 'A', 'Z', '_', '_', 'a', 'z'}}
	case 'W':
		return &class{ranges: []rune{'0', '9', 'A', 'Z', '_', '_', 'a', 'z'}, neg: true}
	case 's':
		return &class{ranges: []rune{'\t', '\n', '\f', '\r', ' ', ' '}}
	case 'S':
		return &class{ranges: []rune{'\t', '\n', '\f', '\r', ' ', ' '}, neg: true}
	case 't':
		return &class{ranges: []rune{'\t', '\t'}}
	case 'n':
		return &class{ranges: []rune{'\n', '\n'}}
	case 'r':
		return &class{ranges: []rune{'\r', '\r'}}
	case 'f':
		return &class{ranges: []rune{'\f', '\f'}}
	}
	if c < 0x80 && !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return &class{ranges: []rune{rune(c), rune(c)}}
	}
	p.fail(at, "the escape \\"+string(c)+" is not supported")
	return nil
}

func (p *parser) class() *node {
	at := p.i
	p.i++
	set := &class{}
	if p.i < len(p.s) && p.s[p.i] == '^' {
		set.neg = true
		p.i++
	}
	first := true
	for {
		if p.i >= len(p.s) {
			p.fail(at, "missing closing ]")
			return nil
		}
		c := p.s[p.i]
		if c == ']' && !first {
			p.i++
			break
		}
		first = false
		if c == '[' && p.i+1 < len(p.s) && p.s[p.i+1] == ':' {
			p.fail(p.i, "POSIX classes [:name:] are not supported")
			return nil
		}
		var lo rune
		if c == '\\' {
			e := p.escape(true)
			if e == nil {
				return nil
			}
			if e.neg || len(e.ranges) != 2 || e.ranges[0] != e.ranges[1] {
				if e.neg {
					p.fail(p.i-2, "a negated class inside [ ] is not supported")
					return nil
				}
				set.ranges = append(set.ranges, e.ranges...)
				continue
			}
			lo = e.ranges[0]
		} else {
			r, n := utf8.DecodeRuneInString(p.s[p.i:])
			p.i += n
			lo = r
		}
		hi := lo
		if p.i+1 < len(p.s) && p.s[p.i] == '-' && p.s[p.i+1] != ']' {
			p.i++
			if p.s[p.i] == '\\' {
				e := p.escape(true)
				if e == nil {
					return nil
				}
				if e.neg || len(e.ranges) != 2 || e.ranges[0] != e.ranges[1] {
					p.fail(p.i-2, "invalid character class range")
					return nil
				}
				hi = e.ranges[0]
			} else {
				r, n := utf8.DecodeRuneInString(p.s[p.i:])
				p.i += n
				hi = r
			}
			if hi < lo {
				p.fail(at, "invalid character class range")
				return nil
			}
		}
		set.ranges = append(set.ranges, lo, hi)
	}
	return &node{kind: 'c', set: set, start: at}
}

// compile appends n's instructions; false when the program grows past
// MaxProgram.
func (re *Regexp) compile(n *node) bool {
	if len(re.prog) > MaxProgram {
		return false
	}
	emit := func(i inst) int {
		re.prog = append(re.prog, i)
		return len(re.prog) - 1
	}
	switch n.kind {
	case 'c':
		emit(inst{op: opChar, set: n.set})
	case '^':
		emit(inst{op: opBegin})
	case '$':
		emit(inst{op: opEnd})
	case '+':
		for _, s := range n.subs {
			if !re.compile(s) {
				return false
			}
		}
	case '|':
		// split L1, next; L1: a; jmp end; next: split L2, … ; last
		var jumps []int
		for k, s := range n.subs {
			if k < len(n.subs)-1 {
				sp := emit(inst{op: opSplit})
				re.prog[sp].x = len(re.prog)
				if !re.compile(s) {
					return false
				}
				jumps = append(jumps, emit(inst{op: opJmp}))
				re.prog[sp].y = len(re.prog)
			} else if !re.compile(s) {
				return false
			}
		}
		for _, j := range jumps {
			re.prog[j].x = len(re.prog)
		}
	case '*':
		// L: split body, end; body; jmp L
		sp := emit(inst{op: opSplit})
		re.prog[sp].x = len(re.prog)
		if !re.compile(n.subs[0]) {
			return false
		}
		emit(inst{op: opJmp, x: sp})
		re.prog[sp].y = len(re.prog)
	case 'p':
		// L: body; split L, end
		l := len(re.prog)
		if !re.compile(n.subs[0]) {
			return false
		}
		emit(inst{op: opSplit, x: l, y: len(re.prog) + 1})
	case '?':
		sp := emit(inst{op: opSplit})
		re.prog[sp].x = len(re.prog)
		if !re.compile(n.subs[0]) {
			return false
		}
		re.prog[sp].y = len(re.prog)
	}
	return len(re.prog) <= MaxProgram
}

// MatchString says whether s contains a match of the pattern, letters
// compared case-insensitively.
func (re *Regexp) MatchString(s string) bool {
	n := len(re.prog)
	cur := make([]int, 0, n)
	next := make([]int, 0, n)
	mark := make([]int, n) // the step+1 at which a pc was added
	stack := make([]int, 0, n)
	step := 1
	// add follows the empty transitions from pc at position pos; it
	// reports a reached match.
	add := func(list []int, pc, pos int) ([]int, bool) {
		stack = append(stack[:0], pc)
		for len(stack) > 0 {
			pc := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if mark[pc] == step {
				continue
			}
			mark[pc] = step
			switch in := re.prog[pc]; in.op {
			case opMatch:
				return list, true
			case opJmp:
				stack = append(stack, in.x)
			case opSplit:
				stack = append(stack, in.y, in.x)
			case opBegin:
				if pos == 0 {
					stack = append(stack, pc+1)
				}
			case opEnd:
				if pos == len(s) {
					stack = append(stack, pc+1)
				}
			case opChar:
				list = append(list, pc)
			}
		}
		return list, false
	}
	var ok bool
	if cur, ok = add(cur, 0, 0); ok {
		return true
	}
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		step++
		next = next[:0]
		for _, pc := range cur {
			if re.prog[pc].set.has(r) {
				if next, ok = add(next, pc+1, i+w); ok {
					return true
				}
			}
		}
		i += w
		// Unanchored: a new attempt starts at every position.
		if next, ok = add(next, 0, i); ok {
			return true
		}
		cur, next = next, cur
	}
	return false
}
