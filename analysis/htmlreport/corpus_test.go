package htmlreport

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/analysis"
	"github.com/perfcalc/perfcalc/analysis/palxml"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// TestCorpusReports: the reports of the real logs of the corpus, with
// perfcalc's default analyses and with PAL's SystemOverview.xml, are
// well-formed and self-contained, and
// draw a chart for every analysis that has series.
func TestCorpusReports(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	set := analysis.Defaults()
	for _, name := range []string{"PAL_SamplePerfmonLog.blg", "Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg", "PAL_SamplePerfmonLog.blg+SystemOverview.xml"} {
		t.Run(name, func(t *testing.T) {
			if log, xml, ok := strings.Cut(name, "+"); ok {
				// PAL's threshold file, its HTML descriptions sanitized
				pal := filepath.Join(corpus.Root(), "..", "shared", "pal")
				if _, err := os.Stat(filepath.Join(pal, xml)); err != nil {
					t.Skipf("PAL's threshold files are not in %s (the shared folder is absent): skipped", pal)
				}
				read := palxml.FoldReader(os.ReadFile, func(dir string) ([]string, error) {
					entries, err := os.ReadDir(dir)
					var names []string
					for _, e := range entries {
						names = append(names, e.Name())
					}
					return names, err
				})
				var err error
				if set, err = palxml.Load(filepath.Join(pal, xml), read, nil); err != nil {
					t.Fatal(err)
				}
				name = log
			}
			f, err := os.Open(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			fi, err := f.Stat()
			if err != nil {
				t.Fatal(err)
			}
			c, err := relog.New(f, fi.Size(), relog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := analysis.Run(c, set, analysis.Options{})
			if err != nil {
				t.Fatal(err)
			}
			doc := write(t, []*analysis.Report{r})
			wellFormed(t, doc)
			outside := descBlock.ReplaceAllString(doc, "")
			for _, m := range urlAttr.FindAllStringSubmatch(outside, -1) {
				if !strings.HasPrefix(m[2], "#") {
					t.Errorf("%s=%q outside a description or reference", m[1], m[2])
				}
			}
			run := 0
			for _, res := range r.Results {
				if res.Skipped == "" && len(res.Series) > 0 {
					run++
				}
			}
			if figures := strings.Count(doc, `<figure class="chart">`); run == 0 || figures < run {
				t.Errorf("%d charts for %d analyses with series", figures, run)
			}
		})
	}
}

// TestPALFilesReports: the report of the PAL sample log with each of PAL's
// threshold files that loads is well-formed: every description of PAL's
// files goes through sanitize.
func TestPALFilesReports(t *testing.T) {
	pal := filepath.Join(corpus.Root(), "..", "shared", "pal")
	files, _ := filepath.Glob(filepath.Join(pal, "*.xml"))
	if len(files) == 0 {
		t.Skipf("PAL's threshold files are not in %s (the shared folder is absent): skipped", pal)
	}
	log := filepath.Join(corpus.Shared(t, "blg"), "PAL_SamplePerfmonLog.blg")
	read := palxml.FoldReader(os.ReadFile, func(dir string) ([]string, error) {
		entries, err := os.ReadDir(dir)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names, err
	})
	loaded := 0
	for _, file := range files {
		set, err := palxml.Load(file, read, nil)
		if err != nil {
			continue // refused with a reason: palxml's tests check which
		}
		loaded++
		f, err := os.Open(log)
		if err != nil {
			t.Fatal(err)
		}
		fi, _ := f.Stat()
		c, err := relog.New(f, fi.Size(), relog.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := analysis.Run(c, set, analysis.Options{})
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(file), err)
		}
		t.Run(filepath.Base(file), func(t *testing.T) { wellFormed(t, write(t, []*analysis.Report{r})) })
	}
	if loaded < 50 {
		t.Errorf("only %d of %d threshold files loaded", loaded, len(files))
	}
}
