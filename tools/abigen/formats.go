package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
)

// relogFormats is the source of relog.Format, from the root: the ABI's
// Format… constants (relog_text's formats) are written from its constants.
const relogFormats = "engine/relog/write.go"

// formatNames returns the names of relog.Format's constants, in the order
// of their values: the const block whose first constant is "Format = iota"
// (each of the others the next value).
func formatNames(path string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		return nil, err
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST || len(gd.Specs) == 0 {
			continue
		}
		first := gd.Specs[0].(*ast.ValueSpec)
		if t, ok := first.Type.(*ast.Ident); !ok || t.Name != "Format" || len(first.Values) != 1 {
			continue
		}
		if v, ok := first.Values[0].(*ast.Ident); !ok || v.Name != "iota" {
			return nil, errors.New(path + ": relog.Format's constants do not start at iota")
		}
		var names []string
		for i, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if i > 0 && (vs.Type != nil || len(vs.Values) > 0) || len(vs.Names) != 1 {
				return nil, fmt.Errorf("%s: relog.Format's constant %s is not the next value", path, vs.Names[0].Name)
			}
			names = append(names, vs.Names[0].Name)
		}
		return names, nil
	}
	return nil, errors.New(path + " has no Format constants")
}

// formatLine is a Format… constant of layout.go, with its line comment.
var formatLine = regexp.MustCompile(`(?m)^\tFormat([A-Z][A-Za-z0-9]*)\s*=\s*(\S+)[ \t]*(//[^\n]*)?\n`)

// writeFormats returns layout.go's source with its Format… constants (but
// FormatMask) written from relog.Format's names: Format<name> = <value>,
// each keeping its line comment (what the ABI says of it; a new one's is
// "relog.<name>"), in the place of the old ones, which follow each other.
func writeFormats(src []byte, names []string) ([]byte, error) {
	comments := map[string]string{}
	start, end := -1, -1
	for _, m := range formatLine.FindAllSubmatchIndex(src, -1) {
		name := string(src[m[2]:m[3]])
		if name == "Mask" {
			continue
		}
		if end >= 0 && m[0] != end {
			return nil, errors.New(layoutFile + ": the Format constants do not follow each other")
		}
		if start < 0 {
			start = m[0]
		}
		end = m[1]
		if m[6] >= 0 {
			comments[name] = string(src[m[6]:m[7]])
		}
	}
	if start < 0 {
		return nil, errors.New(layoutFile + " has no Format constants")
	}
	var b bytes.Buffer
	b.Write(src[:start])
	for i, name := range names {
		c, ok := comments[name]
		if !ok {
			c = "// relog." + name
		}
		b.WriteString("\tFormat" + name + " = " + strconv.Itoa(i) + " " + c + "\n")
	}
	b.Write(src[end:])
	return format.Source(b.Bytes())
}
