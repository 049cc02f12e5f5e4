package abi

import (
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine/counterpath"
)

// TestPatternStarRuns: ParsePatterns cuts each run of "*" in a parent, an
// instance and a counter to two stars, so that a pattern of 2,000 stars
// costs what one star costs (counterpath.Match walks a pattern star by
// star), and means what it meant: counterpath.Compact, which the command
// applies, makes the same pattern of it as of the pattern as written, and
// it matches the same paths. (An object, compared as written, loses stars
// too: no counter set has a run of three.) Before, the module kept every
// star: 2,000 of them in each part.
func TestPatternStarRuns(t *testing.T) {
	run := strings.Repeat("*", 2000)
	short := run[:600] // three runs in a path of at most 2,048 bytes
	for _, pat := range []string{
		`\\M\Process(` + run + `)\% Processor Time`,
		`\\M\Process(a` + short + `b` + short + `)\` + short,
		`\\M\Thread(` + short + `/` + short + `#` + "*" + `)\x` + short,
		`\\M\Memory\` + run,
		`\\M\Obj***ect(***)\***`,
		`\Process(**)\x**y`,
		`\Process(*)\*`,
	} {
		ps, err := ParsePatterns([]byte(pat))
		if err != nil || len(ps) != 1 {
			t.Fatalf("%.40q: %v", pat, err)
		}
		p := ps[0]
		written, err := counterpath.Parse(pat)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{p.Parent, p.Instance, p.Counter} {
			if strings.Contains(s, "***") {
				t.Errorf("%.40q: a part of %d bytes keeps a run of stars", pat, len(s))
			}
		}
		if p.Machine != written.Machine || p.Object != strings.ReplaceAll(written.Object, "***", "**") || p.Index != written.Index || p.HasInstance != written.HasInstance {
			t.Errorf("%.40q: %+v, written %+v", pat, p, written)
		}
		a, b := counterpath.Compact([]counterpath.Path{p})[0], counterpath.Compact([]counterpath.Path{written})[0]
		if a.Parent != b.Parent || a.Instance != b.Instance || a.Counter != b.Counter {
			t.Errorf("%.40q: compacted %q/%q/%q, written and compacted %q/%q/%q", pat, a.Parent, a.Instance, a.Counter, b.Parent, b.Instance, b.Counter)
		}
		for _, path := range []string{
			`\\M\Process(ab)\% Processor Time`, `\\M\Process(abb)\x`, `\\M\Process(a)\% Processor Time`,
			`\\M\Thread(p/q#3)\xy`, `\\M\Thread(q#3)\x`, `\\M\Memory\Pages`, `\\M\Process(x)\xay`, `\\M\Process(x)\xy`,
		} {
			q, err := counterpath.Parse(path)
			if err != nil {
				t.Fatal(err)
			}
			if p.Matches(q) != written.Matches(q) {
				t.Errorf("%.40q matches %s: %v; as written: %v", pat, path, p.Matches(q), written.Matches(q))
			}
		}
	}
}
