package collect

import (
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/identity"
)

// TestIdentityPID: the registry source with Config.Identity pid on the PAL log's
// real Process blocks names each process name:pid and counts the one
// identity break of its samples (rundll32#1: PID 3320, then 580, between
// samples 6 and 7), as query.Config.Identity does offline.
func TestIdentityPID(t *testing.T) {
	c := loadV1Corpus(t)
	var blobs [][]byte
	for _, s := range c.samples {
		blobs = append(blobs, s[230])
	}
	p, err := counterpath.Parse(`\Process(rundll32*)\ID Process`)
	if err != nil {
		t.Fatal(err)
	}
	col, err := NewRegistry(ReplayRegistry(blobs, c.names), Config{Paths: []counterpath.Path{p}, Identity: identity.PID})
	if err != nil {
		t.Fatal(err)
	}
	defer col.Close()
	var s Sample
	breaks := map[int]int{}
	for i := range blobs {
		if err := col.Collect(&s); err != nil {
			t.Fatal(err)
		}
		if len(s.Errors) > 0 || len(s.IdentityNotes) > 0 {
			t.Fatalf("sample %d: errors %v, notes %q", i, s.Errors, s.IdentityNotes)
		}
		for _, v := range s.Values {
			if !strings.HasSuffix(v.Parts.Instance, ":"+strconv.FormatUint(v.Raw.FirstValue, 10)) {
				t.Fatalf("sample %d: %s holds the process %d", i, v.Path, v.Raw.FirstValue)
			}
		}
		if s.IdentityBreaks > 0 {
			breaks[i] = s.IdentityBreaks
		}
	}
	if len(breaks) != 1 || breaks[7] != 1 {
		t.Fatalf("breaks by sample %v, want 1 at sample 7", breaks)
	}
}
