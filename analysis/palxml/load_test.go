package palxml

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/analysis"
)

// TestLoadQuickSystemOverview: the file most users start with. The figures
// are read off the file: "Processor % Processor Time" has a Warning gt 50
// (priority 50) and a Critical gt 80 (priority 100); "Memory Available
// MBytes" computes its Warning from PhysicalMemory (default 16 GB): 16 ×
// 1024 × 0.10 = 1638.4 MB, lt.
func TestLoadQuickSystemOverview(t *testing.T) {
	dir := palDir(t)
	set, err := Load("QuickSystemOverview.xml", FSReader(os.DirFS(dir)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if set.Name != "Quick System Overview" {
		t.Errorf("Name = %q", set.Name)
	}
	find := func(name string) *analysis.Analysis {
		for i := range set.Analyses {
			if set.Analyses[i].Name == name {
				return &set.Analyses[i]
			}
		}
		t.Fatalf("no analysis %q", name)
		return nil
	}
	cpu := find("Processor % Processor Time")
	want := []analysis.Threshold{
		{Name: "More than 50% processor utilization", Condition: analysis.Warning, Priority: 50, Datasource: `\Processor(*)\% Processor Time`, Operator: analysis.Greater, Value: 50},
		{Name: "More than 80% processor utilization", Condition: analysis.Critical, Priority: 100, Datasource: `\Processor(*)\% Processor Time`, Operator: analysis.Greater, Value: 80},
	}
	if len(cpu.Thresholds) != 2 || cpu.Thresholds[0] != want[0] || cpu.Thresholds[1] != want[1] {
		t.Errorf("have %+v\nwant %+v", cpu.Thresholds, want)
	}
	if cpu.Category != "Processor" || !cpu.Enabled || cpu.Datasources[0].Round != 0 || cpu.Datasources[0].Path.Object != "Processor" {
		t.Errorf("have %+v", cpu)
	}
	mem := find("Memory Available MBytes")
	if th := mem.Thresholds[0]; th.Operator != analysis.Less || th.Value != 1638.4 {
		t.Errorf("have %+v, want lt 1638.4", th)
	}
	set, err = Load("QuickSystemOverview.xml", FSReader(os.DirFS(dir)), map[string]string{"PhysicalMemory": "32"})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range set.Analyses {
		if a.Name == "Memory Available MBytes" && a.Thresholds[0].Value != 3276.8 {
			t.Errorf("PhysicalMemory=32: have %v, want 3276.8", a.Thresholds[0].Value)
		}
	}
}

// TestLoadRefused: EMRA.xml has no PALVERSION, Exchange2007-HUB.xml is in
// PAL's v1 schema.
func TestLoadRefused(t *testing.T) {
	dir := palDir(t)
	for name, want := range map[string]string{
		"EMRA.xml":             "no PALVERSION",
		"Exchange2007-HUB.xml": "v1 schema",
	} {
		_, err := Load(name, FSReader(os.DirFS(dir)), nil)
		var le *Error
		if !errors.As(err, &le) || !strings.Contains(err.Error(), want) || le.File != name {
			t.Errorf("%s: have %v, want an *Error naming the file and saying %q", name, err, want)
		}
	}
}
