package htmlreport

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"
)

// FuzzSanitize: whatever a threshold file's description holds, the
// sanitized HTML has only allowed tags, balanced, with no attribute but
// a's href (http, https, mailto) and rel, so it cannot run a script, fetch
// anything or break the report's structure.
func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		`<B>bold</B><BR>x`, `<p>a<p>b`, `<a href="javascript:x">l</a>`, `<scr<script>ipt>`,
		`<img src=x onerror=alert(1)>`, `<a href='http://x' onclick=y>`, `&lt;b&gt; &#x3c;script&#x3e;`,
		`<o:p></o:p>`, `</td></tr></table><script>`, `<![CDATA[<script>]]>`, `<!-- <script> -->`, "<a\nhref=\"https://x\">",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := sanitize(in)
		d := xml.NewDecoder(strings.NewReader("<div>" + out + "</div>"))
		d.Strict = false
		d.AutoClose = xml.HTMLAutoClose
		d.Entity = xml.HTMLEntity
		var stack []string
		for {
			tok, err := d.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("sanitize(%q) = %q: %v", in, out, err)
			}
			switch tok := tok.(type) {
			case xml.StartElement:
				name := tok.Name.Local
				if _, ok := allowedTags[name]; !ok && name != "div" {
					t.Fatalf("sanitize(%q) = %q keeps <%s>", in, out, name)
				}
				for _, a := range tok.Attr {
					if name != "a" || a.Name.Local != "href" && a.Name.Local != "rel" || a.Name.Local == "href" && !safeURL(a.Value) {
						t.Fatalf("sanitize(%q) = %q keeps the attribute %s=%q of <%s>", in, out, a.Name.Local, a.Value, name)
					}
				}
				stack = append(stack, name)
			case xml.EndElement:
				if len(stack) == 0 || stack[len(stack)-1] != tok.Name.Local {
					t.Fatalf("sanitize(%q) = %q: </%s> closes %v", in, out, tok.Name.Local, stack)
				}
				stack = stack[:len(stack)-1]
			case xml.Comment, xml.ProcInst, xml.Directive:
				t.Fatalf("sanitize(%q) = %q keeps markup %T", in, out, tok)
			}
		}
		if len(stack) != 0 {
			t.Fatalf("sanitize(%q) = %q leaves %v open", in, out, stack)
		}
		if l := linkify(in); strings.Contains(strings.ToLower(l), "<script") || strings.Count(l, "<a ") != strings.Count(l, "</a>") {
			t.Fatalf("linkify(%q) = %q", in, l)
		}
	})
}
