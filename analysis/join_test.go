package analysis

import (
	"slices"
	"strings"
	"testing"
)

// TestJoin: analyses in order, a later one of a known ID or name left
// out, questions by variable, the first set's value kept, unsupported
// concatenated, nil sets ignored.
func TestJoin(t *testing.T) {
	a := &Set{Name: "a", Analyses: []Analysis{{ID: "1", Name: "CPU"}, {Name: "Disk"}},
		Questions: []Question{{Var: "PhysicalMemory"}}, Values: map[string]string{"PhysicalMemory": "4"},
		Unsupported: []Unsupported{{Analysis: "x", What: "y", Reason: "z"}}}
	b := &Set{Name: "b", Analyses: []Analysis{{ID: "1", Name: "Other"}, {Name: "disk"}, {Name: "Net"}},
		Questions: []Question{{Var: "physicalmemory"}, {Var: "OS"}}, Values: map[string]string{"PhysicalMemory": "8", "OS": "w"},
		Unsupported: []Unsupported{{Analysis: "u"}}}
	j := Join(a, nil, b)
	var names []string
	for _, x := range j.Analyses {
		names = append(names, x.Name)
	}
	if !slices.Equal(names, []string{"CPU", "Disk", "Net"}) {
		t.Errorf("analyses %v", names)
	}
	if len(j.Questions) != 2 || j.Values["PhysicalMemory"] != "4" || j.Values["OS"] != "w" {
		t.Errorf("questions %v, values %v", j.Questions, j.Values)
	}
	if len(j.Unsupported) != 2 || j.Name != "a+b" {
		t.Errorf("unsupported %v, name %q", j.Unsupported, j.Name)
	}
	j.Analyses[0].Name = "changed"
	if a.Analyses[0].Name != "CPU" {
		t.Error("Join shares its analyses slice with its input")
	}
}

// TestFoldKey: the keys are equal exactly where strings.EqualFold holds.
func TestFoldKey(t *testing.T) {
	words := []string{"disk", "DISK", "Disk", "dIsk", "ſtop", "stop", "STOP", "K", "k", "\u212a", "Ǆ", "ǅ", "ǆ", "straße", "STRASSE", "", "é", "É"}
	for _, a := range words {
		for _, b := range words {
			if (foldKey(a) == foldKey(b)) != strings.EqualFold(a, b) {
				t.Errorf("%q %q: keys %q %q, EqualFold %v", a, b, foldKey(a), foldKey(b), strings.EqualFold(a, b))
			}
		}
	}
}
