package main

import (
	"path/filepath"
	"testing"
)

// TestEndAtFileTimeZero: -e 1601-01-01 (FILETIME 0) is an end, before
// every sample: nothing is selected, as for any -e before the log (it meant
// "no end": every row, exit 0); -b at FILETIME 0 still keeps every sample.
func TestEndAtFileTimeZero(t *testing.T) {
	in := putFile(t, filepath.Join(t.TempDir(), "x.blg"), tinyLog(3))
	_, all, _ := runCmd(t, "", "relog", in)
	for _, e := range []string{"1601-01-01", "01/01/1601 00:00:00.000", "1601-01-01T00:00:00"} {
		code, out, errs := runCmd(t, "", "relog", in, "-e", e)
		want := "perfcalc relog: nothing selected: -e 01/01/1601 00:00:00.000 is before the first sample (" + in + " runs from 02/19/2013 18:50:17.844 to 02/19/2013 18:50:19.844)\n"
		if code != exitError || out != "" || errs != want {
			t.Errorf("-e %s: exit %d, %d bytes, %q\nwant exit 1, %q", e, code, len(out), errs, want)
		}
	}
	if code, _, errs := runCmd(t, "", "relog", in, "-b", "2013-02-19T18:50:18", "-e", "1601-01-01"); code != exitUsage || errs != "perfcalc relog: -e is before -b\n" {
		t.Errorf("-b … -e 1601-01-01: exit %d, %q", code, errs)
	}
	if code, out, errs := runCmd(t, "", "relog", in, "-b", "1601-01-01"); code != exitOK || out != all || errs != "" {
		t.Errorf("-b 1601-01-01: exit %d, %q, %q", code, out, errs)
	}
}
