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

// MaxInstanceName is PDH_MAX_INSTANCE_NAME (pdh.h): the longest instance
// name, in UTF-16 code units, that PDH handles. perfcalc's decoders refuse
// a longer one (see the package documentation).
const MaxInstanceName = 1024

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
	_       [0]func() // not comparable: no equality function in the module
	Machine string    // without the leading \\; "" for the local machine
	Object  string    // the object (performance object, counter set)
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
	_    [0]func() // not comparable: no equality function in the module
	Path string    // the path as given
	Pos  int       // byte position of the problem
	Msg  string    // what is wrong
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
	if pos, msg := parse(s, &p); msg != "" {
		return Path{}, &Error{Path: s, Pos: pos, Msg: msg}
	}
	return p, nil
}

// SplitInstance splits a full instance name as a log or a capture writes it,
// parent/name#n, by Parse's rules: the parent is what precedes the first
// "/", the index a "#" followed by decimal digits at the end. A "/" that
// would leave the parent or the name empty, and a "#" that would leave the
// name empty or is not followed by an index below 2^31 ("#*" included:
// it names no instance), belong to the name. Unlike Parse, which reads a
// path that people write, it reads as an index only the numbers that PDH's
// numbering of duplicate names writes, 1 to 2^31 − 1 without a leading
// zero: an instance that is literally named h#0, h#00 or h#01 keeps that
// name (Parse reads them as h, h and h#1, and h itself would be written
// h#0). So name, joined again as parent/name#index (#index where index
// is not 0), is full, for every full: a log written from the parts names
// its instances as the log it was read from (relog -f bin). It
// allocates nothing.
func SplitInstance(full string) (parent, name string, index int) {
	name = full
	if slash := strings.IndexByte(name, '/'); slash > 0 && slash < len(name)-1 {
		parent, name = name[:slash], name[slash+1:]
	}
	digits := len(name) // where the final run of digits starts
	for digits > 0 && '0' <= name[digits-1] && name[digits-1] <= '9' {
		digits--
	}
	if digits > 1 && digits < len(name) && name[digits-1] == '#' && name[digits] != '0' {
		if n, ok := parseIndex(name[digits:]); ok {
			name, index = name[:digits-1], n
		}
	}
	return parent, name, index
}

// parse is Parse, which it leaves the error to: it fills *p and returns
// "" or what is wrong and where. (One error value built in one place
// keeps the WebAssembly module small.)
func parse(s string, p *Path) (int, string) {
	if len(s) > MaxLength {
		return MaxLength, "longer than 2048 bytes (PDH_MAX_COUNTER_PATH)"
	}
	if !utf8.ValidString(s) {
		for i := 0; i < len(s); {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				return i, "not valid UTF-8"
			}
			i += n
		}
	}
	if s == "" || s[0] != '\\' {
		return 0, `a counter path starts with \ (\object\counter) or \\ (\\machine\object\counter)`
	}
	rest, base := s, 0
	if strings.HasPrefix(s, `\\`) {
		end := strings.IndexByte(s[2:], '\\')
		if end < 0 {
			return len(s), `the machine name must be followed by \object\counter`
		}
		if end == 0 {
			return 2, "empty machine name"
		}
		p.Machine = s[2 : 2+end]
		base = 2 + end
		rest = s[base:]
	}
	// rest is \object[(instance)]\counter.
	last := strings.LastIndexByte(rest, '\\')
	if last == 0 {
		return base + len(rest), `missing \counter after the object`
	}
	p.Counter = rest[last+1:]
	if p.Counter == "" {
		return base + len(rest), "empty counter name"
	}
	obj := rest[1:last]
	objPos := base + 1
	if open := strings.IndexByte(obj, '('); open >= 0 {
		if obj[len(obj)-1] != ')' {
			return objPos + len(obj), `an instance part "(…)" must end just before \counter`
		}
		p.HasInstance = true
		inst := obj[open+1 : len(obj)-1]
		instPos := objPos + open + 1
		obj = obj[:open]
		if inst == "" {
			return instPos, "empty instance name"
		}
		if slash := strings.IndexByte(inst, '/'); slash >= 0 {
			p.Parent = inst[:slash]
			if p.Parent == "" {
				return instPos, "empty parent instance name before /"
			}
			inst = inst[slash+1:]
			instPos += slash + 1
			if inst == "" {
				return instPos, "empty instance name after /"
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
					return instPos + hash + 1, "instance index " + idx + " is too large"
				}
				p.Index = n
			default:
				isIndex = false
			}
			if isIndex {
				inst = inst[:hash]
				if inst == "" {
					return instPos, "empty instance name before #"
				}
			}
		}
		p.Instance = inst
	} else if strings.IndexByte(obj, ')') >= 0 {
		return objPos + strings.IndexByte(obj, ')'), `")" without "("`
	}
	if obj == "" {
		return objPos, "empty object name"
	}
	if i := strings.IndexByte(obj, '\\'); i >= 0 {
		return objPos + i, `object names cannot contain \`
	}
	p.Object = obj
	return 0, ""
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
// run of characters, including none. It splits the pattern at its stars
// and finds the pieces in name from left to right: the first at the start,
// each middle one at its leftmost place after the one before, the last at
// the end. Each piece is searched with Knuth, Morris and Pratt's automaton
// over case-folded runes, so time is linear in len(pattern) + len(name),
// whatever the input; it allocates only for a piece longer than 32 runes.
func Match(pattern, name string) bool {
	star := strings.IndexByte(pattern, '*')
	if star < 0 {
		return strings.EqualFold(pattern, name)
	}
	var buf [64]rune
	at := atStart
	for {
		piece := pattern
		if star >= 0 {
			piece, pattern = pattern[:star], pattern[star+1:]
		} else {
			at = atEnd
		}
		if piece != "" {
			end := search(name, piece, buf[:0], at)
			if end < 0 {
				return false
			}
			name = name[end:]
		}
		if at == atEnd {
			return true
		}
		at = anywhere
		star = strings.IndexByte(pattern, '*')
	}
}

// Where search looks for a piece.
const (
	anywhere = iota // the leftmost occurrence
	atStart         // at the start only
	atEnd           // at the end only
)

// search finds piece (without stars) in s under case folding, where at
// says, with the Knuth–Morris–Pratt automaton, and returns the byte
// offset in s where the occurrence ends, or −1. buf is scratch space.
func search(s, piece string, buf []rune, at int) int {
	// pat: the piece's folded runes; next[q]: the length of the longest
	// proper prefix of pat[:q+1] that is also its suffix.
	m := rune(utf8.RuneCountInString(piece))
	if rune(cap(buf)) < 2*m {
		buf = make([]rune, 2*m)
	}
	pat, next := buf[:m], buf[m:2*m]
	for i, j := 0, 0; j < len(piece); i++ {
		r, n := foldAt(piece, j)
		pat[i] = r
		j += n
	}
	next[0] = 0
	for q, k := rune(1), rune(0); q < m; q++ {
		for k > 0 && pat[k] != pat[q] {
			k = next[k-1]
		}
		if pat[k] == pat[q] {
			k++
		}
		next[q] = k
	}
	j := rune(0)
	for i, t := 0, rune(1); i < len(s); t++ {
		c, n := foldAt(s, i)
		i += n
		for j > 0 && pat[j] != c {
			j = next[j-1]
		}
		if pat[j] == c {
			j++
		}
		switch {
		case j == m && (at != atEnd || i == len(s)):
			return i
		case at == atStart && j < t:
			return -1 // the t runes read are not the piece's start
		case j == m:
			j = next[j-1]
		}
	}
	return -1
}

// foldAt decodes the rune of s at byte i (an invalid byte is U+FFFD, one
// byte long, as for utf8.DecodeRuneInString) and folds it: it returns one
// representative of the runes equal to it under Unicode simple folding
// (its orbit under unicode.SimpleFold), the smallest, and its length. So
// "k", "K" and the Kelvin sign all fold to "K", and two runes are equal as
// strings.EqualFold compares them exactly when they fold alike.
func foldAt(s string, i int) (rune, int) {
	r, n := rune(s[i]), 1
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' {
			r -= 'a' - 'A'
		}
		return r, 1
	}
	r, n = utf8.DecodeRuneInString(s[i:])
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		m = min(m, f)
	}
	return m, n
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

// Compact returns the patterns ps with each run of "*" in a parent,
// instance or counter reduced to one "*" (a name of stars alone to "**",
// which Matches tells from "*"): they match the same paths, at a cost that
// no longer grows with the length of the runs (Match walks a pattern star
// by star: a pattern of 2,000 stars cost 45 µs a match, against 0.1 µs for
// one star). It returns ps itself when no pattern has a run, and never
// changes ps.
func Compact(ps []Path) []Path {
	out := ps
	for i := range ps {
		parent, inst, ctr := oneStar(ps[i].Parent), oneStar(ps[i].Instance), oneStar(ps[i].Counter)
		if parent == ps[i].Parent && inst == ps[i].Instance && ctr == ps[i].Counter {
			continue
		}
		if &out[0] == &ps[0] {
			out = append([]Path(nil), ps...)
		}
		out[i].Parent, out[i].Instance, out[i].Counter = parent, inst, ctr
	}
	return out
}

// oneStar reduces each run of "*" in s to one "*", and s made of stars
// alone to "**".
func oneStar(s string) string {
	run, stars := false, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '*' {
			stars++
			run = run || i > 0 && s[i-1] == '*'
		}
	}
	switch {
	case !run || len(s) == 2:
		return s
	case stars == len(s):
		return "**"
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '*' || i == 0 || s[i-1] != '*' {
			b = append(b, s[i])
		}
	}
	return string(b)
}
