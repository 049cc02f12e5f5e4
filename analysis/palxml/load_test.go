package palxml

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/analysis"
)

// TestLoadQuickSystemOverview: the file most users start with. The figures
// are read off the file: "Processor % Processor Time" has a Warning gt 50
// (priority 50) and a Critical gt 80 (priority 100); "Memory Available
// MBytes" computes its Warning from PhysicalMemory (default 16 GB): 16 ×
// 1024 × 0.10 = 1638.4 MB, lt.
func TestLoadQuickSystemOverview(t *testing.T) {
	dir := palDir(t)
	set, err := Load("QuickSystemOverview.xml", dirReader(dir), nil)
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
	set, err = Load("QuickSystemOverview.xml", dirReader(dir), map[string]string{"PhysicalMemory": "32"})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range set.Analyses {
		if a.Name == "Memory Available MBytes" && a.Thresholds[0].Value != 3276.8 {
			t.Errorf("PhysicalMemory=32: have %v, want 3276.8", a.Thresholds[0].Value)
		}
	}
}

// TestLoadPoolSwitch: "Memory Pool Non-Paged Bytes" computes its limit
// with switch ($OS.ToUpper()). With the defaults (OS "Windows Server",
// PhysicalMemory 16) the default clause: 75 % of 16 GB, and the Warning
// is 60 % of that; with OS "Windows XP 32-bit" and UserVa 2048 on 16 GB
// RAM, 256 MB, and 60 % of it.
func TestLoadPoolSwitch(t *testing.T) {
	dir := palDir(t)
	for _, tc := range []struct {
		values map[string]string
		want   float64
	}{
		{nil, float64(16<<30) * 0.75 * 0.60},
		{map[string]string{"OS": "Windows XP 32-bit"}, float64(256<<20) * 0.60},
	} {
		set, err := Load("QuickSystemOverview.xml", dirReader(dir), tc.values)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, a := range set.Analyses {
			for _, th := range a.Thresholds {
				if th.Name == "More than 60% of Pool Non-Paged Kernel Memory Used" {
					found = true
					if th.Value != tc.want || th.Operator != analysis.Greater {
						t.Errorf("%v: have %v, want gt %v", tc.values, th.Value, tc.want)
					}
				}
			}
		}
		if !found {
			t.Errorf("%v: the threshold is missing", tc.values)
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
		_, err := Load(name, dirReader(dir), nil)
		var le *Error
		if !errors.As(err, &le) || !strings.Contains(err.Error(), want) || le.File != name {
			t.Errorf("%s: have %v, want an *Error naming the file and saying %q", name, err, want)
		}
	}
}

// memFiles is a read function over in-memory files.
func memFiles(files map[string]string) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		s, ok := files[name]
		if !ok {
			return nil, os.ErrNotExist
		}
		return []byte(s), nil
	}
}

func analysisXML(id, name, code string) string {
	return `<ANALYSIS NAME="` + name + `" ENABLED="True" CATEGORY="C" ID="` + id + `">
<DATASOURCE TYPE="CounterLog" NAME="\O(*)\C" EXPRESSIONPATH="\O(*)\C" COLLECTIONVARNAME="X" DATATYPE="round2"><EXCLUDE INSTANCE="_Total"/></DATASOURCE>
<THRESHOLD NAME="t" CONDITION="Waning" PRIORITY="50"><CODE><![CDATA[` + code + `]]></CODE></THRESHOLD>
<DESCRIPTION><![CDATA[<b>d</b>]]></DESCRIPTION>
</ANALYSIS>`
}

// TestInheritance: inherited files are read relative to the file's
// folder, loops are ignored, an inherited analysis is added unless one
// with the same ID or NAME exists, an inherited question unless its
// variable exists.
func TestInheritance(t *testing.T) {
	lit := func(n string) string {
		return "StaticThreshold -CollectionOfCounterInstances $X -Operator 'gt' -Threshold " + n
	}
	files := map[string]string{
		"dir/main.xml": `<PAL PALVERSION="2.0" NAME="main">
<INHERITANCE filepath="base.xml"/>
<INHERITANCE FILEPATH=""/>
<QUESTION QUESTIONVARNAME="Mem" DATATYPE="integer" DEFAULTVALUE="4">RAM?</QUESTION>
` + analysisXML("{1}", "own one", lit("1")) + `
` + analysisXML("{2}", "own two", lit("2")) + `
</PAL>`,
		"dir/base.xml": `<PAL PALVERSION="2.3">
<INHERITANCE FilePath="sub\deeper.xml"/>
<QUESTION QUESTIONVARNAME="mem" DATATYPE="integer" DEFAULTVALUE="99">RAM again?</QUESTION>
<QUESTION QUESTIONVARNAME="Cores" DATATYPE="integer" DEFAULTVALUE="2">Cores?</QUESTION>
` + analysisXML("{1}", "same ID, other name", lit("10")) + `
` + analysisXML("{9}", "own two", lit("20")) + `
` + analysisXML("{3}", "base three", "$t = $Mem * $Cores\n"+lit("$t")) + `
</PAL>`,
		"dir/sub/deeper.xml": `<PAL PALVERSION="2.0"><INHERITANCE FILEPATH="../main.xml"/>
` + analysisXML("{4}", "deep four", lit("4")) + `</PAL>`,
	}
	read := memFiles(files)
	set, err := Load("dir/main.xml", read, nil)
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for _, a := range set.Analyses {
		have = append(have, a.Name+"="+strconv.FormatFloat(a.Thresholds[0].Value, 'g', -1, 64))
	}
	if want := "own one=1 own two=2 base three=8 deep four=4"; strings.Join(have, " ") != want {
		t.Errorf("have %s, want %s", strings.Join(have, " "), want)
	}
	if len(set.Questions) != 2 || set.Values["Mem"] != "4" || set.Values["Cores"] != "2" {
		t.Errorf("questions %+v, values %v", set.Questions, set.Values)
	}
	a := set.Analyses[0]
	d := a.Datasources[0]
	if a.Thresholds[0].Condition != analysis.Warning || d.Round != 2 || len(d.Exclude) != 1 || d.Exclude[0] != "_Total" || a.Description != "<b>d</b>" || d.Var != "X" {
		t.Errorf("have %+v", a)
	}
	set, err = Load("dir/main.xml", read, map[string]string{"cores": "3"})
	if err != nil || set.Analyses[2].Thresholds[0].Value != 12 {
		t.Errorf("--set cores=3: have %v, want base three = 4 × 3", err)
	}
}

// TestQuestions: values are checked against their question's type; a
// value for no question, and a needed question without default, are
// errors naming them.
func TestQuestions(t *testing.T) {
	file := `<PAL PALVERSION="2.0">
<QUESTION QUESTIONVARNAME="OS" DATATYPE="options" OPTIONS="Windows 7 32-bit,Windows 7 64-bit">Which?</QUESTION>
<QUESTION QUESTIONVARNAME="Big" DATATYPE="boolean" DEFAULTVALUE="False">Big?</QUESTION>
<QUESTION QUESTIONVARNAME="N" DATATYPE="int" DEFAULTVALUE="1">N?</QUESTION>
` + analysisXML("{1}", "uses OS", "If ($OS.Substring(10,2) -eq '32') { $t = 1 } Else { $t = 2 }\nStaticThreshold -CollectionOfCounterInstances $X -Operator 'gt' -Threshold $t") + `
` + analysisXML("{2}", "uses Big", "If ($Big) { $t = 10 } Else { $t = 20 }\nStaticThreshold -CollectionOfCounterInstances $X -Operator 'gt' -Threshold $t") + `
</PAL>`
	read := memFiles(map[string]string{"f.xml": file})
	for _, tc := range []struct {
		values map[string]string
		want   string // error text, or the two thresholds
	}{
		{nil, "needs question OS (Which?), which has no default"},
		{map[string]string{"OS": "Windows 7 32-bit"}, "1 20"},
		{map[string]string{"os": "WINDOWS 7 64-BIT", "big": "true"}, "2 10"},
		{map[string]string{"OS": "Windows 95"}, `question OS: "Windows 95" is not one of its options`},
		{map[string]string{"OS": "Windows 7 32-bit", "Big": "maybe"}, `question Big: "maybe" is not a boolean`},
		{map[string]string{"OS": "Windows 7 32-bit", "N": "x"}, `question N: "x" is not an integer`},
		{map[string]string{"OS": "Windows 7 32-bit", "Nope": "1"}, `no question "Nope" (its questions: OS, Big, N)`},
	} {
		set, err := Load("f.xml", read, tc.values)
		var have string
		if err != nil {
			have = err.Error()
			if !strings.Contains(have, "f.xml") {
				t.Errorf("%v: the error does not name the file: %s", tc.values, have)
			}
		} else {
			have = strconv.FormatFloat(set.Analyses[0].Thresholds[0].Value, 'g', -1, 64) + " " + strconv.FormatFloat(set.Analyses[1].Thresholds[0].Value, 'g', -1, 64)
		}
		if !strings.Contains(have, tc.want) {
			t.Errorf("%v: have %s, want %s", tc.values, have, tc.want)
		}
	}
	_, err := Load("f.xml", read, nil)
	if !errors.Is(err, ErrNoValue) {
		t.Errorf("have %v, want ErrNoValue", err)
	}

	// The causes, by type: what a caller (the command, the module) acts on.
	var mv *MissingValueError
	if !errors.As(err, &mv) || mv.Question != "OS" || mv.Analysis != "uses OS" || mv.Prompt != "Which?" {
		t.Errorf("have %#v, want a *MissingValueError of OS in \"uses OS\"", err)
	}
	_, err = Load("f.xml", read, map[string]string{"OS": "Windows 7 32-bit", "Nope": "1", "Nix": "2"})
	var nq *NoQuestionError
	if !errors.As(err, &nq) || (nq.Name != "Nope" && nq.Name != "Nix") || strings.Join(nq.Questions, ",") != "OS,Big,N" {
		t.Errorf("have %#v, want a *NoQuestionError", err)
	}
	_, err = Load("f.xml", read, map[string]string{"OS": "Windows 7 32-bit", "Big": "maybe"})
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Question != "Big" || ve.Value != "maybe" {
		t.Errorf("have %#v, want a *ValueError of Big", err)
	}
	if errors.As(err, new(*NoQuestionError)) || errors.As(err, new(*MissingValueError)) || errors.Is(err, ErrNoValue) {
		t.Errorf("%v: a *ValueError only", err)
	}
}

// TestInheritanceError: an inherited file that cannot be read is an
// *InheritanceError naming it and the file that inherits it, wrapping the
// read function's error; the text names both (issue 32, item 9) and gives
// the read error. The first file's own absence is not one.
func TestInheritanceError(t *testing.T) {
	read := memFiles(map[string]string{
		"dir/main.xml":     `<PAL PALVERSION="2.0"><INHERITANCE FILEPATH="sub\base.xml"/></PAL>`,
		"dir/sub/base.xml": `<PAL PALVERSION="2.0"><INHERITANCE FILEPATH="gone.xml"/></PAL>`,
	})
	_, err := Load("dir/main.xml", read, nil)
	var ie *InheritanceError
	if !errors.As(err, &ie) || ie.File != "dir/sub/gone.xml" || ie.By != "dir/sub/base.xml" || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("have %#v, want an *InheritanceError of dir/sub/gone.xml by dir/sub/base.xml", err)
	}
	if have, want := err.Error(), "palxml: dir/sub/gone.xml: cannot read it (inherited by dir/sub/base.xml): "+os.ErrNotExist.Error(); have != want {
		t.Errorf("have %q, want %q", have, want)
	}
	_, err = Load("nowhere.xml", read, nil)
	if err == nil || errors.As(err, &ie) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("have %v, want a read error that is no *InheritanceError", err)
	}
}

// TestLoadDatasources: regular-expression objects, Generated network
// utilisation, unsupported generated code, charts and bands.
func TestLoadDatasources(t *testing.T) {
	file := `<PAL PALVERSION="2.0">
<ANALYSIS NAME="sql" ENABLED="False" CATEGORY="SQL" PRIMARYDATASOURCE="\SQLServer:Buffer Node(*)\Page life expectancy" ID="{1}">
<DATASOURCE TYPE="CounterLog" NAME="\SQLServer:Buffer Node(*)\Page life expectancy" COLLECTIONVARNAME="P" EXPRESSIONPATH="\SQLServer:Buffer Node(*)\Page life expectancy" ISCOUNTEROBJECTREGULAREXPRESSION="True" REGULAREXPRESSIONCOUNTERPATH="\(MSSQL|SQLServer).*:Buffer Node(*)\Page life expectancy" DATATYPE="integer"/>
<THRESHOLD NAME="low" CONDITION="CRITICAL" PRIORITY="100"><CODE>StaticThreshold -CollectionOfCounterInstances $P -Operator 'lt' -Threshold 300</CODE></THRESHOLD>
<THRESHOLD NAME="loop" CONDITION="Warning" PRIORITY="50"><CODE>For ($a=0;$a -lt $P.Count;$a++) { }</CODE></THRESHOLD>
<THRESHOLD NAME="other var" CONDITION="Warning" PRIORITY="50"><CODE>StaticThreshold -CollectionOfCounterInstances $Q -Operator 'lt' -Threshold 3</CODE></THRESHOLD>
<CHART CHARTTITLE="PLE" DATASOURCE="\SQLServer:Buffer Node(*)\Page life expectancy" MAXLIMIT="1000">
<SERIES NAME="Critical"><CODE>StaticChartThreshold -CollectionOfCounterInstances $P -MinThreshold 0 -MaxThreshold 300 -IsOperatorGreaterThan $False -UseMaxValue $True</CODE></SERIES>
<SERIES NAME="Warning"><CODE>StaticChartThreshold -CollectionOfCounterInstances $P -MinThreshold $Nope -MaxThreshold 300</CODE></SERIES>
</CHART>
</ANALYSIS>
<ANALYSIS NAME="net" ENABLED="True" CATEGORY="Network" ID="{2}">
<DATASOURCE TYPE="CounterLog" NAME="\Network Interface(*)\Bytes Total/sec" COLLECTIONVARNAME="B" EXPRESSIONPATH="\Network Interface(*)\Bytes Total/sec"/>
<DATASOURCE TYPE="CounterLog" NAME="\Network Interface(*)\Current Bandwidth" COLLECTIONVARNAME="W" EXPRESSIONPATH="\Network Interface(*)\Current Bandwidth"/>
<DATASOURCE TYPE="Generated" NAME="\Network Interface(*)\% Network Utilization" COLLECTIONVARNAME="U" DATATYPE="integer"><CODE><![CDATA[
$U = @{}
For ($i=0;$i -lt $B.Count;$i++) {
    [int]$iPercentageOfNetworkUtilization = (([double]$B[$i].QuantizedAvg[$v] * 8) / [double]$W[$b].QuantizedAvg[$v]) * 100
}]]></CODE></DATASOURCE>
<DATASOURCE TYPE="Generated" NAME="\PAL Generated(*)\Odd" COLLECTIONVARNAME="O"><CODE>$O = [math]::abs(1)</CODE></DATASOURCE>
<THRESHOLD NAME="busy" CONDITION="Warning" PRIORITY="50"><CODE>StaticThreshold -CollectionOfCounterInstances $U -Operator 'ge' -Threshold 50</CODE></THRESHOLD>
</ANALYSIS>
<ANALYSIS NAME="bad regexp" ENABLED="True" CATEGORY="X" ID="{3}">
<DATASOURCE TYPE="CounterLog" NAME="\A\B" COLLECTIONVARNAME="A" EXPRESSIONPATH="\A\B" ISCOUNTEROBJECTREGULAREXPRESSION="True" REGULAREXPRESSIONCOUNTERPATH="\(A\B"/>
</ANALYSIS>
</PAL>`
	set, err := Load("f.xml", memFiles(map[string]string{"f.xml": file}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Analyses) != 2 {
		t.Fatalf("have %d analyses, want 2 (bad regexp left out)", len(set.Analyses))
	}
	sql, net := set.Analyses[0], set.Analyses[1]
	d := sql.Datasources[0]
	if sql.Enabled || d.ObjectRegexp != "(MSSQL|SQLServer).*:Buffer Node" || d.Path.Counter != "Page life expectancy" || d.Round != 0 {
		t.Errorf("sql: have %+v", sql)
	}
	if len(sql.Thresholds) != 1 || sql.Thresholds[0].Condition != analysis.Critical || sql.Thresholds[0].Operator != analysis.Less {
		t.Errorf("sql thresholds: have %+v", sql.Thresholds)
	}
	wantBand := analysis.Band{Condition: analysis.Critical, Min: 0, Max: 300, UseMax: true}
	if len(sql.Charts) != 1 || sql.Charts[0].MaxLimit != 1000 || len(sql.Charts[0].Bands) != 1 || sql.Charts[0].Bands[0] != wantBand {
		t.Errorf("sql charts: have %+v", sql.Charts)
	}
	f := net.Datasources[2].Formula
	if f == nil || f.Left != `\Network Interface(*)\Bytes Total/sec` || f.Right != `\Network Interface(*)\Current Bandwidth` || f.Op != '/' || f.Scale != 800 || !f.Integer || !f.PerSlice {
		t.Errorf("network utilisation: have %+v", f)
	}
	// The generated series' path: the object and counter of its name.
	if p := net.Datasources[2].Path; p.Object != "Network Interface" || p.Counter != "% Network Utilization" || p.Instance != "*" {
		t.Errorf("network utilisation's path: have %+v", p)
	}
	if net.Datasources[3].Formula != nil || net.Thresholds[0].Datasource != `\Network Interface(*)\% Network Utilization` {
		t.Errorf("net: have %+v", net)
	}
	var have []string
	for _, u := range set.Unsupported {
		have = append(have, u.Element+" "+u.Analysis+"/"+u.What)
	}
	want := []string{
		"THRESHOLD sql/loop", "THRESHOLD sql/other var", `SERIES sql/chart "PLE" series "Warning"`,
		`DATASOURCE net/\PAL Generated(*)\Odd`, `ANALYSIS bad regexp/bad regexp`,
	}
	if strings.Join(have, "\n") != strings.Join(want, "\n") {
		t.Errorf("unsupported:\n%s\nwant\n%s", strings.Join(have, "\n"), strings.Join(want, "\n"))
	}
}

// TestLoadManyAnalyses: 10^5 analyses (10^4 thresholds) load in bounded
// time.
func TestLoadManyAnalyses(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	var b strings.Builder
	b.WriteString(`<PAL PALVERSION="2.0">`)
	for i := 0; i < 100000; i++ {
		b.WriteString(`<ANALYSIS NAME="a` + strconv.Itoa(i) + `"><DATASOURCE NAME="\O\C" COLLECTIONVARNAME="X"/>`)
		if i%10 == 9 {
			b.WriteString(`<THRESHOLD CONDITION="Warning"><CODE>StaticThreshold -CollectionOfCounterInstances $X -Operator gt -Threshold 1</CODE></THRESHOLD>`)
		}
		b.WriteString(`</ANALYSIS>`)
	}
	b.WriteString(`</PAL>`)
	start := time.Now()
	set, err := Load("many.xml", memFiles(map[string]string{"many.xml": b.String()}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Analyses) != 100000 || set.Analyses[99999].Thresholds[0].Value != 1 {
		t.Errorf("have %d analyses", len(set.Analyses))
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestGenerated: the generated forms recognised, and some that are not.
func TestGenerated(t *testing.T) {
	for _, tc := range []struct {
		code string
		want *analysis.Formula // nil: unsupported
	}{
		{"For ($a=0;$a -lt $A.Count;$a++) {\n  If ($m -ge 0) {\n   [int]$iRatio = $([double]$A[$a].Value[$v] / [double]$B[$m].Value[$v]) * 100\n  }\n}",
			&analysis.Formula{Left: "A", Right: "B", Op: '/', Scale: 100, Integer: true}},
		{"[int]$iAvg = $([double]$A[$a].Value[$v] / [double]$B[$m].Value[$v])",
			&analysis.Formula{Left: "A", Right: "B", Op: '/', Scale: 1, Integer: true}},
		{"[int]$p = (([double]$A[$i].QuantizedAvg[$v] * 8) / [double]$B[$b].QuantizedAvg[$v]) * 100",
			&analysis.Formula{Left: "A", Right: "B", Op: '/', Scale: 800, Integer: true, PerSlice: true}},
		{"[int]$p = (([double]$A[$i].QuantizedAvg[$v] * 8) / [double]$B[$b].Value[$v]) * 100", nil},
		{"[int]$iDiff = $([double]$A[$a].Value[$v] - [double]$B[$m].Value[$v])\n$iDiff = [math]::abs($iDiff / 1024)", nil},
		{"[int]$r = ([double]$R[$i].QuantizedAvg[$v] / ([double]$R[$i].QuantizedAvg[$v] + [double]$W[$b].QuantizedAvg[$v])) * 100", nil},
		{"", nil},
	} {
		f, reason := generated(tc.code)
		if tc.want == nil {
			if f != nil || reason == "" {
				t.Errorf("%q: have %+v, want a reason", tc.code, f)
			}
			continue
		}
		if f == nil || *f != *tc.want {
			t.Errorf("%q: have %+v (%s), want %+v", tc.code, f, reason, tc.want)
		}
	}
}

// TestLoadProcessorCount: the thresholds PAL computes from the processor
// count ($CollectionOfProcessorPercentProcessorTime.Count - 1) are kept
// with a Count that analysis.Run evaluates with the log's count, read off
// the files' code: QuickSystemOverview.xml's queue length, 2 and 10 per
// processor (a count of 1 — no processor — counts as 1 processor), its
// chart bands 2 to 10 − 0.001 and 10 to 20 − 0.001 per processor;
// SystemOverview.xml's Process % Processor Time, 50 % and 75 % per
// processor, without that If.
func TestLoadProcessorCount(t *testing.T) {
	dir := palDir(t)
	set, err := Load("SystemOverview.xml", dirReader(dir), nil)
	if err != nil {
		t.Fatal(err)
	}
	const procs = `\Processor(*)\% Processor Time`
	for _, tc := range []struct {
		analysis string
		th       int
		count    int
		want     float64
	}{
		{"System Processor Queue Length", 0, 5, 8},
		{"System Processor Queue Length", 1, 5, 40},
		{"System Processor Queue Length", 0, 2, 2},
		{"System Processor Queue Length", 1, 1, 10},
		{"Process % Processor Time", 0, 9, 400},
		{"Process % Processor Time", 1, 9, 600},
		{"Process % Processor Time", 1, 1, 0},
	} {
		var a *analysis.Analysis
		for i := range set.Analyses {
			if set.Analyses[i].Name == tc.analysis {
				a = &set.Analyses[i]
			}
		}
		if a == nil || tc.th >= len(a.Thresholds) {
			t.Fatalf("%s: no threshold %d", tc.analysis, tc.th)
		}
		th := a.Thresholds[tc.th]
		if th.Count == nil || th.Count.Datasource != procs {
			t.Fatalf("%s %q: Count %+v, want one of %s", tc.analysis, th.Name, th.Count, procs)
		}
		if v, _, err := th.Count.Eval(tc.count); err != nil || v != tc.want {
			t.Errorf("%s %q with count %d: have %v, %v; want %v", tc.analysis, th.Name, tc.count, v, err, tc.want)
		}
		if a.Name == "System Processor Queue Length" {
			b := a.Charts[0].Bands
			lo, hi, err := b[1].Count.Eval(5)
			if len(b) != 2 || err != nil || lo != 40 || hi != 80-0.001 || b[1].Condition != analysis.Critical {
				t.Errorf("queue length bands %+v: critical with count 5 %v to %v, %v", b, lo, hi, err)
			}
		}
	}
	for _, u := range set.Unsupported {
		if strings.Contains(u.Reason, ".Count") && !strings.Contains(u.Analysis, "Context Switching") {
			t.Errorf("still unsupported: %+v", u)
		}
	}
}

// TestReasonsQuotePaths: what a reason or an unsupported entry names is
// quoted as the threshold file writes it: a chart's title
// \System\Processor Queue Length, not \\System\\Processor Queue Length.
func TestReasonsQuotePaths(t *testing.T) {
	file := `<PAL PALVERSION="2.0"><ANALYSIS NAME="Q" ENABLED="True" CATEGORY="C" ID="q">
<DATASOURCE TYPE="CounterLog" NAME="\System\Processor Queue Length" EXPRESSIONPATH="\System\Processor Queue Length" COLLECTIONVARNAME="Q" />
<CHART CHARTTITLE="\System\Processor Queue Length" DATASOURCE="\System\Processor Queue Length"><SERIES NAME="Warning"><CODE><![CDATA[For ($i=0;$i -lt 2;$i++) { }]]></CODE></SERIES></CHART>
</ANALYSIS><ANALYSIS NAME="R" ENABLED="True" CATEGORY="C" ID="r">
<DATASOURCE TYPE="CounterLog" NAME="\Bad" EXPRESSIONPATH="\Bad" COLLECTIONVARNAME="B" />
</ANALYSIS></PAL>`
	set, err := Load("f.xml", memFiles(map[string]string{"f.xml": file}), nil)
	if err != nil {
		t.Fatal(err)
	}
	var whats []string
	for _, u := range set.Unsupported {
		whats = append(whats, u.What+": "+u.Reason)
	}
	all := strings.Join(whats, "\n")
	if !strings.Contains(all, `chart "\System\Processor Queue Length" series "Warning"`) || !strings.Contains(all, `DATASOURCE "\Bad"`) || strings.Contains(all, `\\`) {
		t.Errorf("have\n%s\nwant the chart's title and the datasource's name as written", all)
	}
}
