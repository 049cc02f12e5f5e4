package palxml

import (
	"errors"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/perfcalc/perfcalc/analysis/psexpr"
)

// The reader's bounds: inputs past them are refused with a SyntaxError,
// never read into memory without limit.
const (
	// MaxInput is the largest document read, in bytes (PAL's largest
	// threshold file has 330 KB; CounterLang.xml 1.6 MB).
	MaxInput = 16 << 20
	// MaxDepth is the deepest element nesting (PAL's files nest 5 deep).
	MaxDepth = 64
	// MaxAttrs is the most attributes of one element.
	MaxAttrs = 256
	// MaxElements is the most elements of a document (PAL's largest
	// file has about 2,700; 10^5 analyses need 200,000): about 150 bytes
	// of memory each.
	MaxElements = 300000
)

// Attr is an attribute of an element, its value with the entity and
// character references replaced.
type Attr struct {
	Name, Value string
}

// Node is an element: its name, attributes, child elements and text (the
// concatenation of its own character data and CDATA sections, without
// those of its children).
type Node struct {
	Name     string
	Attrs    []Attr
	Children []*Node
	Text     string
	// Offset is the byte offset of the element's "<" in the document (in
	// its UTF-8 form: a UTF-16 document's offsets are those of its UTF-8
	// conversion), Line its 1-based line.
	Offset, Line int
}

// Attr returns the value of the attribute named name (compared exactly)
// and whether the element has it.
func (n *Node) Attr(name string) (string, bool) {
	for _, a := range n.Attrs {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

// AttrFold is Attr with the name compared case-insensitively (ASCII).
func (n *Node) AttrFold(name string) (string, bool) {
	for _, a := range n.Attrs {
		if equalFold(a.Name, name) {
			return a.Value, true
		}
	}
	return "", false
}

// SyntaxError is a document that is not well-formed XML (or that the
// reader refuses: a DOCTYPE, an unsupported encoding, a bound crossed):
// what was expected, where.
type SyntaxError struct {
	Offset int // byte offset of the problem in the document as given (a UTF-16 one too)
	Line   int // 1-based line of Offset (0 for a document too large to read)
	Msg    string
	Err    error // the cause, where there is a sentinel for it (ErrDoctype)
}

// Unwrap returns the cause (nil for most errors).
func (e *SyntaxError) Unwrap() error { return e.Err }

// Error says what is wrong and where: line, byte offset, expectation.
func (e *SyntaxError) Error() string {
	b := []byte("xml: line ")
	b = strconv.AppendInt(b, int64(e.Line), 10)
	b = append(b, " (byte "...)
	b = strconv.AppendInt(b, int64(e.Offset), 10)
	b = append(b, "): "...)
	b = append(b, e.Msg...)
	return string(b)
}

// ErrDoctype is the cause of the SyntaxError for a document with a DOCTYPE
// declaration: the reader refuses them rather than expand (or skip) the
// entities they may declare (billion laughs and external entities).
var ErrDoctype = errors.New("DOCTYPE declarations are not accepted")

type reader struct {
	s        []byte
	i        int
	elements int
	// lineAt and line: the line of offset lineAt, counted forward as
	// elements are read.
	lineAt, line int
}

// lineOf returns the line of offset at >= r.lineAt.
func (r *reader) lineOf(at int) int {
	for _, c := range r.s[r.lineAt:at] {
		if c == '\n' {
			r.line++
		}
	}
	r.lineAt = at
	return r.line
}

func (r *reader) fail(at int, msg string) error {
	if at > len(r.s) {
		at = len(r.s)
	}
	line := 1
	for _, c := range r.s[:at] {
		if c == '\n' {
			line++
		}
	}
	return &SyntaxError{Offset: at, Line: line, Msg: msg}
}

// Parse reads an XML document and returns its root element. It accepts
// UTF-8 with or without a byte-order mark, and UTF-16 (little or big
// endian) with one; elements, attributes, character data, CDATA sections,
// comments and processing instructions (both dropped), the five
// predefined entities and numeric character references. A DOCTYPE is
// refused (ErrDoctype), so no entity is ever declared or expanded. Errors
// are *SyntaxError.
func Parse(doc []byte) (*Node, error) {
	if len(doc) > MaxInput {
		return nil, &SyntaxError{Offset: MaxInput, Line: 0, Msg: "document larger than " + strconv.Itoa(MaxInput) + " bytes"}
	}
	s, err := toUTF8(doc)
	if err != nil {
		return nil, err
	}
	r := &reader{s: s, line: 1}
	if !utf8.Valid(s) {
		at := 0
		for at < len(s) {
			c, n := utf8.DecodeRune(s[at:])
			if c == utf8.RuneError && n <= 1 {
				break
			}
			at += n
		}
		return nil, inDocument(doc, s, r.fail(at, "invalid UTF-8"))
	}
	root, err := r.document()
	return root, inDocument(doc, s, err)
}

// inDocument turns the offset of a *SyntaxError found in s, the UTF-8 form
// of doc, into the offset of the same character in doc (after a UTF-8
// byte-order mark, or in UTF-16).
func inDocument(doc, s []byte, err error) error {
	se, ok := err.(*SyntaxError)
	if !ok {
		return err
	}
	switch {
	case len(doc) >= 3 && doc[0] == 0xEF && doc[1] == 0xBB && doc[2] == 0xBF:
		se.Offset += 3
	case len(doc) >= 2 && (doc[0] == 0xFF && doc[1] == 0xFE || doc[0] == 0xFE && doc[1] == 0xFF):
		n := 2
		for i := 0; i < se.Offset && i < len(s); {
			c, w := utf8.DecodeRune(s[i:])
			i += w
			n += 2 * utf16.RuneLen(c)
		}
		se.Offset = n
	}
	return err
}

// toUTF8 strips a byte-order mark and converts UTF-16 to UTF-8.
func toUTF8(b []byte) ([]byte, error) {
	switch {
	case len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF:
		return b[3:], nil
	case len(b) >= 2 && (b[0] == 0xFF && b[1] == 0xFE || b[0] == 0xFE && b[1] == 0xFF):
		le := b[0] == 0xFF
		b = b[2:]
		if len(b)%2 != 0 {
			return nil, &SyntaxError{Offset: len(b) + 2, Line: 0, Msg: "UTF-16 document with an odd number of bytes"}
		}
		out := make([]byte, 0, len(b)/2+len(b)/8)
		for i := 0; i < len(b); i += 2 {
			u := rune(b[i])<<8 | rune(b[i+1])
			if le {
				u = rune(b[i+1])<<8 | rune(b[i])
			}
			if utf16.IsSurrogate(u) {
				if u >= 0xDC00 || i+3 >= len(b) {
					return nil, &SyntaxError{Offset: i + 2, Msg: "unpaired UTF-16 surrogate"}
				}
				v := rune(b[i+2])<<8 | rune(b[i+3])
				if le {
					v = rune(b[i+3])<<8 | rune(b[i+2])
				}
				u = utf16.DecodeRune(u, v)
				if u == utf8.RuneError {
					return nil, &SyntaxError{Offset: i + 2, Msg: "unpaired UTF-16 surrogate"}
				}
				i += 2
			}
			out = utf8.AppendRune(out, u)
		}
		return out, nil
	case len(b) >= 2 && (b[0] == '<' && b[1] == 0 || b[0] == 0 && b[1] == '<'):
		return nil, &SyntaxError{Offset: 0, Line: 1, Msg: "UTF-16 document without a byte-order mark"}
	}
	return b, nil
}

func (r *reader) document() (*Node, error) {
	r.space()
	if r.has("<?xml") && r.i+5 < len(r.s) && isSpace(r.s[r.i+5]) {
		if err := r.declaration(); err != nil {
			return nil, err
		}
	}
	var root *Node
	for {
		r.space()
		if r.i >= len(r.s) {
			if root == nil {
				return nil, r.fail(r.i, "expected the root element, found the end of the document")
			}
			return root, nil
		}
		switch {
		case r.has("<!--"):
			if err := r.comment(); err != nil {
				return nil, err
			}
		case r.has("<?"):
			if err := r.pi(); err != nil {
				return nil, err
			}
		case r.has("<!DOCTYPE"):
			err := r.fail(r.i, ErrDoctype.Error())
			err.(*SyntaxError).Err = ErrDoctype
			return nil, err
		case r.s[r.i] == '<' && root == nil:
			n, err := r.element()
			if err != nil {
				return nil, err
			}
			root = n
		case r.s[r.i] == '<':
			return nil, r.fail(r.i, "expected the end of the document after the root element, found another element")
		default:
			return nil, r.fail(r.i, "expected '<', found text outside the root element")
		}
	}
}

// declaration reads <?xml version="1.0" encoding="…"?>; only UTF-8 and
// UTF-16 are accepted (the document was converted already).
func (r *reader) declaration() error {
	start := r.i
	r.i += 5
	n := &Node{}
	if err := r.attrs(n); err != nil {
		return err
	}
	if !r.has("?>") {
		return r.fail(r.i, "expected '?>' to end the XML declaration")
	}
	r.i += 2
	if enc, ok := n.Attr("encoding"); ok && !equalFold(enc, "utf-8") && !equalFold(enc, "utf-16") && !equalFold(enc, "utf8") {
		return r.fail(start, "encoding "+psexpr.Quote(enc)+" is not supported (UTF-8 and UTF-16 are)")
	}
	return nil
}

func (r *reader) has(p string) bool {
	return len(r.s)-r.i >= len(p) && string(r.s[r.i:r.i+len(p)]) == p
}

func (r *reader) space() {
	for r.i < len(r.s) && isSpace(r.s[r.i]) {
		r.i++
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (r *reader) comment() error {
	start := r.i
	k := index(r.s[r.i+4:], "-->")
	if k < 0 {
		return r.fail(start, "expected '-->' to end the comment, found the end of the document")
	}
	r.i += 4 + k + 3
	return nil
}

func (r *reader) pi() error {
	start := r.i
	k := index(r.s[r.i+2:], "?>")
	if k < 0 {
		return r.fail(start, "expected '?>' to end the processing instruction, found the end of the document")
	}
	r.i += 2 + k + 2
	return nil
}

func index(s []byte, p string) int {
	for i := 0; i+len(p) <= len(s); i++ {
		if s[i] == p[0] && string(s[i:i+len(p)]) == p {
			return i
		}
	}
	return -1
}

func isNameStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':' || c >= 0x80
}

func isName(c byte) bool {
	return isNameStart(c) || c >= '0' && c <= '9' || c == '-' || c == '.'
}

func (r *reader) name(what string) (string, error) {
	start := r.i
	if r.i >= len(r.s) || !isNameStart(r.s[r.i]) {
		return "", r.fail(r.i, "expected "+what)
	}
	for r.i < len(r.s) && isName(r.s[r.i]) {
		r.i++
	}
	return string(r.s[start:r.i]), nil
}

// element reads an element and its content without recursion: an explicit
// stack bounded by MaxDepth.
func (r *reader) element() (*Node, error) {
	type frame struct {
		n    *Node
		text []byte
	}
	var stack []frame
	var root *Node
	for {
		// r.s[r.i] == '<' starting a start tag.
		if len(stack) >= MaxDepth {
			return nil, r.fail(r.i, "elements nested deeper than "+strconv.Itoa(MaxDepth))
		}
		r.elements++
		if r.elements > MaxElements {
			return nil, r.fail(r.i, "more than "+strconv.Itoa(MaxElements)+" elements")
		}
		n := &Node{Offset: r.i, Line: r.lineOf(r.i)}
		r.i++
		name, err := r.name("an element name after '<'")
		if err != nil {
			return nil, err
		}
		n.Name = name
		if err := r.attrs(n); err != nil {
			return nil, err
		}
		if len(stack) > 0 {
			p := stack[len(stack)-1].n
			p.Children = append(p.Children, n)
		} else {
			root = n
		}
		if r.has("/>") {
			r.i += 2
			if len(stack) == 0 {
				return root, nil
			}
		} else if r.has(">") {
			r.i++
			stack = append(stack, frame{n: n})
		} else {
			return nil, r.fail(r.i, "expected '>', '/>' or an attribute in <"+name+">")
		}
		// Content of the innermost open element, up to the next start tag.
	content:
		for {
			f := &stack[len(stack)-1]
			cur := f.n
			if r.i >= len(r.s) {
				return nil, r.fail(r.i, "expected </"+cur.Name+">, found the end of the document")
			}
			c := r.s[r.i]
			switch {
			case c == '&':
				var err error
				if f.text, err = r.reference(f.text); err != nil {
					return nil, err
				}
			case c != '<':
				k := r.i
				for k < len(r.s) && r.s[k] != '<' && r.s[k] != '&' {
					k++
				}
				if j := index(r.s[r.i:k], "]]>"); j >= 0 {
					return nil, r.fail(r.i+j, "']]>' outside a CDATA section")
				}
				f.text = append(f.text, r.s[r.i:k]...)
				r.i = k
			case r.has("<![CDATA["):
				k := index(r.s[r.i+9:], "]]>")
				if k < 0 {
					return nil, r.fail(r.i, "expected ']]>' to end the CDATA section, found the end of the document")
				}
				f.text = append(f.text, r.s[r.i+9:r.i+9+k]...)
				r.i += 9 + k + 3
			case r.has("<!--"):
				if err := r.comment(); err != nil {
					return nil, err
				}
			case r.has("<?"):
				if err := r.pi(); err != nil {
					return nil, err
				}
			case r.has("<!"):
				return nil, r.fail(r.i, "expected an element, a comment or CDATA after '<!'")
			case r.has("</"):
				at := r.i
				r.i += 2
				name, err := r.name("an element name after '</'")
				if err != nil {
					return nil, err
				}
				if name != cur.Name {
					return nil, r.fail(at, "expected </"+cur.Name+">, found </"+name+">")
				}
				r.space()
				if !r.has(">") {
					return nil, r.fail(r.i, "expected '>' to end </"+name+">")
				}
				r.i++
				cur.Text = string(f.text)
				stack = stack[:len(stack)-1]
				if len(stack) == 0 {
					return root, nil
				}
			default:
				// A child's start tag: the parent's text so far stays in
				// its frame.
				break content
			}
		}
	}
}

// attrs reads attributes up to '>', '/>' or '?>'.
func (r *reader) attrs(n *Node) error {
	for {
		sp := r.i
		r.space()
		if r.i >= len(r.s) {
			return r.fail(r.i, "expected '>' to end <"+n.Name+">, found the end of the document")
		}
		c := r.s[r.i]
		if c == '>' || c == '/' || c == '?' {
			return nil
		}
		if r.i == sp {
			return r.fail(r.i, "expected white space before an attribute")
		}
		if len(n.Attrs) >= MaxAttrs {
			return r.fail(r.i, "more than "+strconv.Itoa(MaxAttrs)+" attributes")
		}
		at := r.i
		name, err := r.name("an attribute name")
		if err != nil {
			return err
		}
		for _, a := range n.Attrs {
			if a.Name == name {
				return r.fail(at, "attribute "+name+" given twice")
			}
		}
		r.space()
		if !r.has("=") {
			return r.fail(r.i, "expected '=' after attribute "+name)
		}
		r.i++
		r.space()
		if r.i >= len(r.s) || r.s[r.i] != '"' && r.s[r.i] != '\'' {
			return r.fail(r.i, "expected a quoted value for attribute "+name)
		}
		q := r.s[r.i]
		r.i++
		var v []byte
		for {
			if r.i >= len(r.s) {
				return r.fail(at, "expected the closing quote of attribute "+name+", found the end of the document")
			}
			c := r.s[r.i]
			switch {
			case c == q:
				r.i++
				n.Attrs = append(n.Attrs, Attr{Name: name, Value: string(v)})
				goto next
			case c == '<':
				return r.fail(r.i, "'<' in the value of attribute "+name)
			case c == '&':
				if v, err = r.reference(v); err != nil {
					return err
				}
			case c == '\t' || c == '\n' || c == '\r':
				// Attribute-value normalisation; \r\n is one space.
				if c == '\r' && r.i+1 < len(r.s) && r.s[r.i+1] == '\n' {
					r.i++
				}
				v = append(v, ' ')
				r.i++
			default:
				v = append(v, c)
				r.i++
			}
		}
	next:
	}
}

// reference reads &name; or &#N; or &#xH; at r.i and appends its text.
func (r *reader) reference(dst []byte) ([]byte, error) {
	at := r.i
	end := -1
	for k := r.i + 1; k < len(r.s) && k < r.i+12; k++ {
		if r.s[k] == ';' {
			end = k
			break
		}
	}
	if end < 0 {
		return dst, r.fail(at, "expected an entity reference ending in ';' after '&'")
	}
	ref := string(r.s[r.i+1 : end])
	r.i = end + 1
	switch ref {
	case "lt":
		return append(dst, '<'), nil
	case "gt":
		return append(dst, '>'), nil
	case "amp":
		return append(dst, '&'), nil
	case "apos":
		return append(dst, '\''), nil
	case "quot":
		return append(dst, '"'), nil
	}
	if len(ref) >= 2 && ref[0] == '#' {
		var v uint64
		var err error
		if ref[1] == 'x' {
			if len(ref) == 2 {
				err = errors.New("empty")
			} else {
				v, err = strconv.ParseUint(ref[2:], 16, 32)
			}
		} else {
			v, err = strconv.ParseUint(ref[1:], 10, 32)
		}
		if err != nil || v == 0 || v > utf8.MaxRune || v >= 0xD800 && v <= 0xDFFF || v < 0x20 && v != 9 && v != 10 && v != 13 || v == 0xFFFE || v == 0xFFFF {
			return dst, r.fail(at, "invalid character reference &"+ref+";")
		}
		return utf8.AppendRune(dst, rune(v)), nil
	}
	return dst, r.fail(at, "unknown entity &"+ref+"; (only lt, gt, amp, apos, quot and character references are defined)")
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
