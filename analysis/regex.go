package analysis

import (
	"errors"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// objectRegexp is a small case-insensitive, unanchored regular expression
// for Datasource.ObjectRegexp, matched in time linear in the pattern times
// the text (a Thompson NFA, no backtracking). It stands in for package
// regexp, which would add about 590 KB to the WebAssembly module; the
// syntax is the part of .NET's that PAL's files use and a little more:
// literals, ".", character classes ([a-z], [^0-9], \d, \w, \s and their
// negations), groups "(…)" (also "(?:…)"), alternation "|", the
// quantifiers "*", "+" and "?" (lazy forms read as greedy: the match is
// the same for a yes/no answer), anchors "^" and "$", and "\" before any
// other character for that character. Other syntax ({n,m}, look-arounds,
// back references, inline options) is refused with an error naming it.
// (PAL's 326 object expressions are all "(MSSQL|SQLServer).*:Object".)
type objectRegexp struct {
	prog []inst
}

// The instructions of the NFA.
const (
	opRune  = iota // one rune, case-insensitively
	opAny          // any rune
	opClass        // a rune in (or, negated, not in) ranges
	opSplit        // continue at x and at y
	opJmp          // continue at x
	opBOL          // at the start of the text
	opEOL          // at its end
	opMatch
)

type inst struct {
	op     uint8
	neg    bool
	r      rune
	x, y   int
	ranges []rune // pairs lo, hi
}

// maxPattern is the longest ObjectRegexp accepted, in bytes, and
// maxNesting the deepest nesting of groups.
const (
	maxPattern = 4096
	maxNesting = 100
)

// node is a parsed expression.
type node struct {
	op     uint8 // opRune, opAny, opClass, opBOL, opEOL, or the kinds below
	kids   []*node
	r      rune
	neg    bool
	ranges []rune
}

// Kinds of node besides the instructions'.
const (
	nConcat = 100 + iota
	nAlt
	nStar
	nPlus
	nQuest
)

type reParser struct {
	s     string
	i     int
	depth int
}

func (p *reParser) fail(what string) error {
	return errors.New("regular expression \"" + p.s + "\" at position " + strconv.Itoa(p.i) + ": " + what)
}

// compileObjectRegexp parses s.
func compileObjectRegexp(s string) (*objectRegexp, error) {
	p := &reParser{s: s}
	if len(s) > maxPattern {
		return nil, p.fail("longer than " + strconv.Itoa(maxPattern) + " bytes")
	}
	n, err := p.alt()
	if err != nil {
		return nil, err
	}
	if p.i < len(s) {
		return nil, p.fail("unexpected " + s[p.i:p.i+1])
	}
	re := &objectRegexp{}
	re.emit(n)
	re.prog = append(re.prog, inst{op: opMatch})
	return re, nil
}

func (p *reParser) alt() (*node, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxNesting {
		return nil, p.fail("nested more than " + strconv.Itoa(maxNesting) + " deep")
	}
	var alts []*node
	for {
		c, err := p.concat()
		if err != nil {
			return nil, err
		}
		alts = append(alts, c)
		if p.i < len(p.s) && p.s[p.i] == '|' {
			p.i++
			continue
		}
		break
	}
	if len(alts) == 1 {
		return alts[0], nil
	}
	return &node{op: nAlt, kids: alts}, nil
}

func (p *reParser) concat() (*node, error) {
	c := &node{op: nConcat}
	for p.i < len(p.s) && p.s[p.i] != '|' && p.s[p.i] != ')' {
		a, err := p.atom()
		if err != nil {
			return nil, err
		}
		for p.i < len(p.s) {
			q := p.s[p.i]
			var op uint8
			switch q {
			case '*':
				op = nStar
			case '+':
				op = nPlus
			case '?':
				op = nQuest
			case '{':
				return nil, p.fail("counted repetition {n,m} is not supported")
			default:
				op = 0
			}
			if op == 0 {
				break
			}
			if a.op == opBOL || a.op == opEOL {
				return nil, p.fail("a quantifier after an anchor")
			}
			p.i++
			if p.i < len(p.s) && p.s[p.i] == '?' { // lazy: same yes/no answer
				p.i++
			}
			a = &node{op: op, kids: []*node{a}}
		}
		c.kids = append(c.kids, a)
	}
	return c, nil
}

func (p *reParser) atom() (*node, error) {
	r, size := utf8.DecodeRuneInString(p.s[p.i:])
	switch r {
	case '(':
		p.i++
		if p.i < len(p.s) && p.s[p.i] == '?' {
			if p.i+1 < len(p.s) && p.s[p.i+1] == ':' {
				p.i += 2
			} else {
				return nil, p.fail("group options (?…) other than (?:…) are not supported")
			}
		}
		n, err := p.alt()
		if err != nil {
			return nil, err
		}
		if p.i >= len(p.s) || p.s[p.i] != ')' {
			return nil, p.fail("missing )")
		}
		p.i++
		return n, nil
	case '*', '+', '?':
		return nil, p.fail("a quantifier with nothing before it")
	case '.':
		p.i++
		return &node{op: opAny}, nil
	case '^':
		p.i++
		return &node{op: opBOL}, nil
	case '$':
		p.i++
		return &node{op: opEOL}, nil
	case '[':
		return p.class()
	case '\\':
		p.i++
		if p.i >= len(p.s) {
			return nil, p.fail("a trailing \\")
		}
		if n := perlClass(p.s[p.i]); n != nil {
			p.i++
			return n, nil
		}
		e, size := utf8.DecodeRuneInString(p.s[p.i:])
		if 'a' <= e|0x20 && e|0x20 <= 'z' || '0' <= e && e <= '9' {
			return nil, p.fail("the escape \\" + string(e) + " is not supported")
		}
		p.i += size
		return &node{op: opRune, r: e}, nil
	}
	p.i += size
	return &node{op: opRune, r: r}, nil
}

// perlClass returns the class of \d, \w, \s and their negations.
func perlClass(c byte) *node {
	var ranges []rune
	switch c | 0x20 {
	case 'd':
		ranges = []rune{'0', '9'}
	case 'w':
		ranges = []rune{'0', '9', 'A', 'Z', '_', '_', 'a', 'z'}
	case 's':
		ranges = []rune{'\t', '\r', ' ', ' '}
	default:
		return nil
	}
	return &node{op: opClass, ranges: ranges, neg: c < 'a'}
}

// class parses [...].
func (p *reParser) class() (*node, error) {
	p.i++ // [
	n := &node{op: opClass}
	if p.i < len(p.s) && p.s[p.i] == '^' {
		n.neg = true
		p.i++
	}
	first := true
	for {
		if p.i >= len(p.s) {
			return nil, p.fail("missing ]")
		}
		if p.s[p.i] == ']' && !first {
			p.i++
			return n, nil
		}
		first = false
		lo, err := p.classRune(n)
		if err != nil {
			return nil, err
		}
		if lo < 0 {
			continue
		}
		hi := lo
		if p.i+1 < len(p.s) && p.s[p.i] == '-' && p.s[p.i+1] != ']' {
			p.i++
			if hi, err = p.classRune(n); err != nil {
				return nil, err
			}
			if hi < lo {
				return nil, p.fail("a range whose end precedes its start")
			}
		}
		n.ranges = append(n.ranges, lo, hi)
	}
}

// classRune reads one rune of a class; a \d, \w or \s adds its ranges to n
// and returns −1.
func (p *reParser) classRune(n *node) (rune, error) {
	if p.s[p.i] == '\\' {
		p.i++
		if p.i >= len(p.s) {
			return 0, p.fail("a trailing \\")
		}
		if c := perlClass(p.s[p.i]); c != nil {
			if c.neg {
				return 0, p.fail("a negated class inside [...] is not supported")
			}
			p.i++
			n.ranges = append(n.ranges, c.ranges...)
			return -1, nil
		}
	}
	r, size := utf8.DecodeRuneInString(p.s[p.i:])
	p.i += size
	return r, nil
}

// emit appends the instructions of n.
func (re *objectRegexp) emit(n *node) {
	switch n.op {
	case nConcat:
		for _, k := range n.kids {
			re.emit(k)
		}
	case nAlt:
		var jumps []int
		for i, k := range n.kids {
			if i < len(n.kids)-1 {
				split := len(re.prog)
				re.prog = append(re.prog, inst{op: opSplit, x: split + 1})
				re.emit(k)
				jumps = append(jumps, len(re.prog))
				re.prog = append(re.prog, inst{op: opJmp})
				re.prog[split].y = len(re.prog)
			} else {
				re.emit(k)
			}
		}
		for _, j := range jumps {
			re.prog[j].x = len(re.prog)
		}
	case nStar:
		split := len(re.prog)
		re.prog = append(re.prog, inst{op: opSplit, x: split + 1})
		re.emit(n.kids[0])
		re.prog = append(re.prog, inst{op: opJmp, x: split})
		re.prog[split].y = len(re.prog)
	case nPlus:
		start := len(re.prog)
		re.emit(n.kids[0])
		re.prog = append(re.prog, inst{op: opSplit, x: start, y: len(re.prog) + 1})
	case nQuest:
		split := len(re.prog)
		re.prog = append(re.prog, inst{op: opSplit, x: split + 1})
		re.emit(n.kids[0])
		re.prog[split].y = len(re.prog)
	default:
		re.prog = append(re.prog, inst{op: n.op, r: n.r, neg: n.neg, ranges: n.ranges})
	}
}

// MatchString reports whether s has a match anywhere in it.
func (re *objectRegexp) MatchString(s string) bool {
	n := len(re.prog)
	cur, next := make([]int, 0, n), make([]int, 0, n)
	onCur, onNext := make([]bool, n), make([]bool, n)
	var add func(list []int, on []bool, pc, at int) ([]int, bool)
	add = func(list []int, on []bool, pc, at int) ([]int, bool) {
		// An explicit stack: the program's splits may nest deeply.
		stack := []int{pc}
		for len(stack) > 0 {
			pc := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if on[pc] {
				continue
			}
			on[pc] = true
			switch in := &re.prog[pc]; in.op {
			case opMatch:
				return list, true
			case opJmp:
				stack = append(stack, in.x)
			case opSplit:
				stack = append(stack, in.y, in.x)
			case opBOL:
				if at == 0 {
					stack = append(stack, pc+1)
				}
			case opEOL:
				if at == len(s) {
					stack = append(stack, pc+1)
				}
			default:
				list = append(list, pc)
			}
		}
		return list, false
	}
	for at := 0; ; {
		var matched bool
		if cur, matched = add(cur, onCur, 0, at); matched {
			return true
		}
		if at >= len(s) {
			return false
		}
		r, size := utf8.DecodeRuneInString(s[at:])
		at += size
		next = next[:0]
		clear(onNext)
		for _, pc := range cur {
			if re.prog[pc].step(r) {
				if next, matched = add(next, onNext, pc+1, at); matched {
					return true
				}
			}
		}
		cur, next = next, cur
		onCur, onNext = onNext, onCur
	}
}

// step reports whether the rune instruction in accepts r.
func (in *inst) step(r rune) bool {
	switch in.op {
	case opAny:
		return true
	case opRune:
		return foldEqual(in.r, r)
	case opClass:
		return in.inClass(r) != in.neg
	}
	return false
}

// inClass reports whether r, or a rune of its case-folding orbit, lies in
// the class' ranges.
func (in *inst) inClass(r rune) bool {
	f := r
	for {
		for i := 0; i+1 < len(in.ranges); i += 2 {
			if in.ranges[i] <= f && f <= in.ranges[i+1] {
				return true
			}
		}
		if f = unicode.SimpleFold(f); f == r {
			return false
		}
	}
}

// foldEqual reports whether a and b are equal under simple case folding.
func foldEqual(a, b rune) bool {
	if a == b {
		return true
	}
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}
