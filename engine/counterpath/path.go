package counterpath

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/perfcalc/perfcalc/engine/internal/quote"
)

// MaxLength is PDH_MAX_COUNTER_PATH: the longest path, in bytes, that Parse
// accepts.
const MaxLength = 2048

// AnyIndex is the Index of a path whose instance ends in "#*": every
// occurrence of the instance name.
const AnyIndex = -1

// Path is a parsed PDH counter path,
// \\Machine\Object(Parent/Instance#Index)\Counter, as PdhParseCounterPath
// fills PDH_COUNTER_PATH_ELEMENTS.
//
// Any of Parent, Instance and Counter may be or contain the wildcard "*";
// Index may be AnyIndex.
type Path struct {
	Machine string // without the leading \\; "" for the local machine
	Object  string // the object (performance object, counter set)
	// HasInstance says whether the path names an instance (has
	// parentheses); objects with a single unnamed instance have none.
	HasInstance bool
	Parent      string // the parent instance, "" for none
	Instance    string // the instance name without its #index
	// Index is the occurrence of Instance among instances of the same full
	// name, 0 for the first (written without #), or AnyIndex.
	Index   int
	Counter string // the counter
}

// Error is a malformed counter path: what is wrong, and where (a byte
// position in the path, 0-based).
type Error struct {
	Path string // the path as given
	Pos  int    // byte position of the problem
	Msg  string // what is wrong
}

func (e *Error) Error() string {
	return "counterpath: " + quote.Path(e.Path) + " at position " + strconv.Itoa(e.Pos) + ": " + e.Msg
}

// Parse reads a counter path: \\machine\object(parent/instance#n)\counter,
// where the machine part, the parenthesised instance part, the parent and
// the #n index are optional. The counter is what follows the last
// backslash; the instance part runs from the first "(" after the object
// name to the ")" before that backslash, so instance names may contain
// parentheses and backslashes (\Paging File(\??\C:\pagefile.sys)\% Usage).
// The parent is what precedes the first "/" of the instance part; the index
// is a "#" followed by decimal digits (or "*") at the end of it, and any
// other "#" is part of the name. Names are kept as written; matching is case-insensitive (see Match).
func Parse(s string) (Path, error) {
	var p Path
	fail := func(pos int, msg string) (Path, error) { return Path{}, parseError(s, pos, msg) }
	if len(s) > MaxLength {
		return fail(MaxLength, "longer than "+strconv.Itoa(MaxLength)+" bytes (PDH_MAX_COUNTER_PATH)")
	}
	if !utf8.ValidString(s) {
		for i := 0; i < len(s); {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				return fail(i, "not valid UTF-8")
			}
			i += n
		}
	}
	if s == "" || s[0] != '\\' {
		return fail(0, `a counter path starts with \ (\object\counter) or \\ (\\machine\object\counter)`)
	}
	rest, base := s, 0
	if strings.HasPrefix(s, `\\`) {
		end := strings.IndexByte(s[2:], '\\')
		if end < 0 {
			return fail(len(s), `the machine name must be followed by \object\counter`)
		}
		if end == 0 {
			return fail(2, "empty machine name")
		}
		p.Machine = s[2 : 2+end]
		base = 2 + end
		rest = s[base:]
	}
	// rest is \object[(instance)]\counter.
	last := strings.LastIndexByte(rest, '\\')
	if last == 0 {
		return fail(base+len(rest), `missing \counter after the object`)
	}
	p.Counter = rest[last+1:]
	if p.Counter == "" {
		return fail(base+len(rest), "empty counter name")
	}
	obj := rest[1:last]
	objPos := base + 1
	if open := strings.IndexByte(obj, '('); open >= 0 {
		if obj[len(obj)-1] != ')' {
			return fail(objPos+len(obj), `an instance part "(…)" must end just before \counter`)
		}
		p.HasInstance = true
		inst := obj[open+1 : len(obj)-1]
		instPos := objPos + open + 1
		obj = obj[:open]
		if inst == "" {
			return fail(instPos, "empty instance name")
		}
		if slash := strings.IndexByte(inst, '/'); slash >= 0 {
			p.Parent = inst[:slash]
			if p.Parent == "" {
				return fail(instPos, "empty parent instance name before /")
			}
			inst = inst[slash+1:]
			instPos += slash + 1
			if inst == "" {
				return fail(instPos, "empty instance name after /")
			}
		}
		// "#n" or "#*" at the end is the index; any other "#" belongs to
		// the name.
		if hash := strings.LastIndexByte(inst, '#'); hash >= 0 {
			idx := inst[hash+1:]
			isIndex := true
			switch {
			case idx == "*":
				p.Index = AnyIndex
			case allDigits(idx):
				n, ok := parseIndex(idx)
				if !ok {
					return fail(instPos+hash+1, "instance index "+idx+" is too large")
				}
				p.Index = n
			default:
				isIndex = false
			}
			if isIndex {
				inst = inst[:hash]
				if inst == "" {
					return fail(instPos, "empty instance name before #")
				}
			}
		}
		p.Instance = inst
	} else if strings.IndexByte(obj, ')') >= 0 {
		return fail(objPos+strings.IndexByte(obj, ')'), `")" without "("`)
	}
	if obj == "" {
		return fail(objPos, "empty object name")
	}
	if i := strings.IndexByte(obj, '\\'); i >= 0 {
		return fail(objPos+i, `object names cannot contain \`)
	}
	p.Object = obj
	return p, nil
}

// String returns the canonical form of the path: the form PdhMakeCounterPath
// writes. Parse(p.String()) == p for every path that Parse returned.
func (p Path) String() string { return string(p.AppendTo(nil)) }

// AppendTo appends the canonical form of the path to dst: "\\machine" when
// there is a machine, "\object", "(parent/instance#n)" when there is an
// instance ("parent/" only with a parent, "#n" only for n > 0 or where the
// name itself ends in "#digits", "#*" for AnyIndex), then "\counter".
func (p Path) AppendTo(dst []byte) []byte {
	if p.Machine != "" {
		dst = append(dst, `\\`...)
		dst = append(dst, p.Machine...)
	}
	dst = append(dst, '\\')
	dst = append(dst, p.Object...)
	if p.HasInstance {
		dst = append(dst, '(')
		if p.Parent != "" {
			dst = append(dst, p.Parent...)
			dst = append(dst, '/')
		}
		dst = append(dst, p.Instance...)
		switch {
		case p.Index == AnyIndex:
			dst = append(dst, "#*"...)
		case p.Index > 0 || endsInIndex(p.Instance):
			// "#0" is written only where leaving it out would make the
			// end of the name read as an index ("a#5" is "a#5#0").
			dst = append(dst, '#')
			dst = strconv.AppendInt(dst, int64(p.Index), 10)
		}
		dst = append(dst, ')')
	}
	dst = append(dst, '\\')
	return append(dst, p.Counter...)
}

// endsInIndex reports whether name ends in what Parse reads as an index:
// "#" followed by decimal digits or "*".
func endsInIndex(name string) bool {
	hash := strings.LastIndexByte(name, '#')
	if hash < 0 {
		return false
	}
	idx := name[hash+1:]
	return idx == "*" || allDigits(idx)
}

// HasWildcard reports whether the path has a wildcard in its parent,
// instance, index or counter.
func (p Path) HasWildcard() bool {
	return p.Index == AnyIndex || strings.Contains(p.Parent, "*") ||
		strings.Contains(p.Instance, "*") || strings.Contains(p.Counter, "*")
}

// Matches reports whether the concrete path q is one that the pattern p
// names: machine and object equal (case-insensitively; an empty machine in
// p matches any machine), parent, instance and counter matching p's
// patterns (Match), and the index equal to p's or p's being AnyIndex. An
// instance pattern of exactly "*" matches every instance, whatever its
// parent and index, as in PDH.
func (p Path) Matches(q Path) bool {
	if p.Machine != "" && !strings.EqualFold(p.Machine, q.Machine) {
		return false
	}
	if !strings.EqualFold(p.Object, q.Object) || !Match(p.Counter, q.Counter) {
		return false
	}
	if p.HasInstance != q.HasInstance {
		return false
	}
	if !p.HasInstance {
		return true
	}
	if p.Instance == "*" && p.Parent == "" {
		return true
	}
	if !Match(p.Instance, q.Instance) {
		return false
	}
	if p.Parent != "" && !Match(p.Parent, q.Parent) {
		return false
	}
	if p.Parent == "" && q.Parent != "" && p.Instance != "*" {
		return false
	}
	if p.Index == AnyIndex || strings.Contains(p.Instance, "*") {
		return true
	}
	return p.Index == q.Index
}

// Match reports whether name matches pattern, case-insensitively (Unicode
// simple folding, as strings.EqualFold), where "*" in pattern matches any
// run of characters, including none. Time is O(len(pattern)·len(name)) at
// worst, without recursion.
func Match(pattern, name string) bool {
	if !strings.Contains(pattern, "*") {
		return strings.EqualFold(pattern, name)
	}
	// The classic greedy glob with one backtrack point.
	px, nx := 0, 0
	starPx, starNx := -1, -1
	for nx < len(name) {
		if px < len(pattern) {
			if pattern[px] == '*' {
				starPx, starNx = px, nx
				px++
				continue
			}
			pr, pn := utf8.DecodeRuneInString(pattern[px:])
			nr, nn := utf8.DecodeRuneInString(name[nx:])
			if equalFoldRune(pr, nr) {
				px += pn
				nx += nn
				continue
			}
		}
		if starPx < 0 {
			return false
		}
		// Let the last star swallow one more character of name.
		_, n := utf8.DecodeRuneInString(name[starNx:])
		starNx += n
		px, nx = starPx+1, starNx
	}
	for px < len(pattern) && pattern[px] == '*' {
		px++
	}
	return px == len(pattern)
}

// equalFoldRune is strings.EqualFold for one rune of each side.
func equalFoldRune(a, b rune) bool {
	if a == b {
		return true
	}
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}

// parseError builds Parse's error, out of line: Parse has many error
// paths, and inlining each copy made the WebAssembly module larger.
//
//go:noinline
func parseError(s string, pos int, msg string) error {
	return &Error{Path: s, Pos: pos, Msg: msg}
}

// allDigits reports whether s is one or more ASCII digits.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// parseIndex reads the decimal digits s as an instance index, which must be
// below 2^31. (strconv.ParseUint would bring strconv's quoting and its
// Unicode tables into the WebAssembly module through NumError.)
func parseIndex(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
		if n >= 1<<31 {
			return 0, false
		}
	}
	return n, true
}
