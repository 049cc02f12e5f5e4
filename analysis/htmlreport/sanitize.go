package htmlreport

import (
	"html"
	"strings"
)

// allowedTags are the tags a description may keep (without attributes,
// but for a's href); the threshold files' descriptions use these. Void
// tags have no end tag.
var allowedTags = map[string]struct{ void bool }{
	"p": {}, "br": {void: true}, "b": {}, "strong": {}, "i": {}, "em": {}, "u": {},
	"ul": {}, "ol": {}, "li": {}, "a": {}, "span": {}, "code": {}, "pre": {}, "tt": {},
	"table": {}, "thead": {}, "tbody": {}, "tr": {}, "td": {}, "th": {},
	"blockquote": {}, "sub": {}, "sup": {},
}

// maxDepth bounds the nesting of a description's tags (PAL's nest three
// deep), so that end tags cost little however hostile the text.
const maxDepth = 32

// maxDescription bounds the text of a description sanitized (a hostile
// threshold file's megabytes of it would only bloat the report).
const maxDescription = 64 << 10

// sanitize turns a threshold file's HTML description into HTML that is
// safe to embed: the tags of allowedTags are kept, lower-cased, without
// their attributes (a keeps an http, https or mailto href, and gets
// rel="noreferrer"); Office's namespaced tags (<o:p>) are dropped; every
// other tag and all text are escaped, so that they show as written.
// Entities of the text are decoded and escaped again. Tags left open are
// closed at the end and stray end tags dropped, so that a description
// cannot break the report's structure.
func sanitize(desc string) string {
	if len(desc) > maxDescription {
		desc = desc[:maxDescription] + " …"
	}
	desc = clean(desc)
	var b strings.Builder
	var open []string
	text := func(s string) { b.WriteString(esc(html.UnescapeString(s))) }
	for len(desc) > 0 {
		lt := strings.IndexByte(desc, '<')
		if lt < 0 {
			text(desc)
			break
		}
		text(desc[:lt])
		desc = desc[lt:]
		gt := strings.IndexByte(desc, '>')
		if gt < 0 {
			text(desc)
			break
		}
		tag := desc[:gt+1]
		desc = desc[gt+1:]
		name, attrs, end, ok := parseTag(tag)
		if ok && strings.Contains(name, ":") {
			continue // <o:p>, Word's markup
		}
		spec, allowed := allowedTags[name]
		if !ok || !allowed {
			text(tag)
			continue
		}
		switch {
		case spec.void:
			if !end {
				b.WriteString("<" + name + ">")
			}
		case end:
			// close up to the matching open tag, or drop a stray one
			for i := len(open) - 1; i >= 0; i-- {
				if open[i] == name {
					for j := len(open) - 1; j >= i; j-- {
						b.WriteString("</" + open[j] + ">")
					}
					open = open[:i]
					break
				}
			}
		case len(open) >= maxDepth:
			text(tag) // nesting deeper than any description's
		default:
			b.WriteString("<" + name)
			if name == "a" {
				if href := attr(attrs, "href"); safeURL(href) {
					b.WriteString(` href="` + esc(href) + `" rel="noreferrer"`)
				}
			}
			b.WriteString(">")
			open = append(open, name)
		}
	}
	for i := len(open) - 1; i >= 0; i-- {
		b.WriteString("</" + open[i] + ">")
	}
	return b.String()
}

// parseTag reads a tag "<name attrs>" or "</name>" (or "<name/>"): its
// lower-case name, its attribute text, and whether it is an end tag; ok
// is false for what is not a tag ("< 5", "<>").
func parseTag(tag string) (name, attrs string, end, ok bool) {
	s := tag[1 : len(tag)-1]
	if strings.HasPrefix(s, "/") {
		end, s = true, s[1:]
	}
	s = strings.TrimSuffix(s, "/")
	i := 0
	for i < len(s) && (isAlnum(s[i]) || s[i] == ':') {
		i++
	}
	if i == 0 || !isLetter(s[0]) {
		return "", "", false, false
	}
	if i < len(s) && !isSpace(s[i]) {
		return "", "", false, false
	}
	return strings.ToLower(s[:i]), s[i:], end, true
}

// attr returns the value of the attribute name (case-insensitive) in a
// tag's attribute text, quoted or not, entities decoded; "" when absent.
func attr(attrs, name string) string {
	s := attrs
	for len(s) > 0 {
		s = strings.TrimLeft(s, " \t\r\n")
		i := 0
		for i < len(s) && s[i] != '=' && !isSpace(s[i]) {
			i++
		}
		key := s[:i]
		s = strings.TrimLeft(s[i:], " \t\r\n")
		if !strings.HasPrefix(s, "=") {
			if i == 0 {
				return ""
			}
			continue
		}
		s = strings.TrimLeft(s[1:], " \t\r\n")
		var val string
		if len(s) > 0 && (s[0] == '"' || s[0] == '\'') {
			q := s[0]
			j := strings.IndexByte(s[1:], q)
			if j < 0 {
				return ""
			}
			val, s = s[1:1+j], s[2+j:]
		} else {
			j := 0
			for j < len(s) && !isSpace(s[j]) {
				j++
			}
			val, s = s[:j], s[j:]
		}
		if strings.EqualFold(key, name) {
			return html.UnescapeString(val)
		}
	}
	return ""
}

// safeURL reports whether a link may be kept: http, https or mailto.
func safeURL(u string) bool {
	l := strings.ToLower(strings.TrimSpace(u))
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "mailto:")
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isAlnum(c byte) bool  { return isLetter(c) || c >= '0' && c <= '9' }
func isSpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// linkify escapes a plain text whose links are written <https://…> (the
// default analyses' references) and makes those links.
func linkify(text string) string {
	text = clean(text)
	var b strings.Builder
	for {
		i := strings.Index(text, "<http")
		j := -1
		if i >= 0 {
			j = strings.IndexByte(text[i:], '>')
		}
		if i < 0 || j < 0 {
			b.WriteString(html.EscapeString(text))
			return b.String()
		}
		u := text[i+1 : i+j]
		b.WriteString(html.EscapeString(text[:i]))
		if safeURL(u) && !strings.ContainsAny(u, " <\"") {
			b.WriteString(`<a href="` + html.EscapeString(u) + `" rel="noreferrer">` + html.EscapeString(u) + `</a>`)
		} else {
			b.WriteString(html.EscapeString(text[i : i+j+1]))
		}
		text = text[i+j+1:]
	}
}
