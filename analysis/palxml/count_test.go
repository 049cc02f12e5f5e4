package palxml

import (
	"regexp"
	"testing"
)

// counts are one threshold file's figures: with its inherited files
// (what a user gets), and of its own THRESHOLD elements.
type counts struct {
	analyses, thresholds, unsupported int // Load's, inherited files included
	// Of the file's own THRESHOLD elements: how many there are, how many
	// became a Threshold, were listed as unsupported, or made no call with
	// the default values (an If whose branch has no StaticThreshold), and
	// how many are one literal StaticThreshold call (checked with a
	// regular expression independent of psexpr).
	own, ownEvaluated, ownUnsupported, ownInactive, ownLiteral int
}

// literalCall is ANALYSIS.md's "one call StaticThreshold
// -CollectionOfCounterInstances $X -Operator OP -Threshold N" with a
// literal N, once PowerShell's # comments are removed.
var (
	literalCall = regexp.MustCompile(`(?is)^\s*StaticThreshold\s+-CollectionOfCounterInstances\s+\$\S+\s+-Operator\s+'?[a-z]+'?\s+-Threshold\s+[0-9.]+(KB|MB|GB|TB|PB)?(\s+-IsTrendOnly\s+\$(True|False))?\s*$`)
	comment     = regexp.MustCompile(`(?m)#.*$`)
)

func countFile(t testing.TB, read func(string) ([]byte, error), name string) (counts, error) {
	var c counts
	b, err := read(name)
	if err != nil {
		t.Fatal(err)
	}
	root, err := Parse(b)
	if err != nil {
		return c, err
	}
	own := map[string]bool{}
	for _, a := range root.Children {
		if a.Name != "ANALYSIS" {
			continue
		}
		nm, _ := a.Attr("NAME")
		own[nm] = true
		for _, th := range a.Children {
			if th.Name != "THRESHOLD" {
				continue
			}
			c.own++
			if literalCall.MatchString(comment.ReplaceAllString(childText(th, "CODE"), "")) {
				c.ownLiteral++
			}
		}
	}
	set, err := Load(name, read, nil)
	if err != nil {
		return c, err
	}
	c.analyses = len(set.Analyses)
	for _, a := range set.Analyses {
		c.thresholds += len(a.Thresholds)
		if own[a.Name] {
			c.ownEvaluated += len(a.Thresholds)
		}
	}
	for _, u := range set.Unsupported {
		if u.Element != "THRESHOLD" {
			continue
		}
		c.unsupported++
		if own[u.Analysis] {
			c.ownUnsupported++
		}
	}
	c.ownInactive = c.own - c.ownEvaluated - c.ownUnsupported
	return c, nil
}
