package fuzz

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/analysis/palxml"
	"github.com/perfcalc/perfcalc/analysis/psexpr"
)

// palSeed is a small threshold file with each construct Load reads: a
// question, inheritance, a regular-expression datasource, a literal and a
// computed threshold, a generated datasource and a chart band.
const palSeed = "\uFEFF<?xml version=\"1.0\"?>\r\n<PAL PALVERSION=\"2.0\" NAME=\"seed\">\r\n" +
	`<INHERITANCE FILEPATH="base.xml"/>
<QUESTION QUESTIONVARNAME="PhysicalMemory" DATATYPE="string" DEFAULTVALUE="16">RAM?</QUESTION>
<ANALYSIS NAME="a" ENABLED="True" CATEGORY="c" PRIMARYDATASOURCE="\O(*)\C" ID="{1}">
<DATASOURCE TYPE="CounterLog" NAME="\O(*)\C" EXPRESSIONPATH="\O(*)\C" COLLECTIONVARNAME="X" DATATYPE="round3" ISCOUNTEROBJECTREGULAREXPRESSION="True" REGULAREXPRESSIONCOUNTERPATH="\(MSSQL|SQLServer).*:O(*)\C"><EXCLUDE INSTANCE="_Total"/></DATASOURCE>
<DATASOURCE TYPE="Generated" NAME="\G\R" COLLECTIONVARNAME="R"><CODE><![CDATA[[int]$i = $([double]$X[$a].Value[$v] / [double]$X[$m].Value[$v]) * 100]]></CODE></DATASOURCE>
<THRESHOLD NAME="w" CONDITION="Waning" PRIORITY="50"><CODE><![CDATA[StaticThreshold -CollectionOfCounterInstances $X -Operator 'gt' -Threshold 1MB]]></CODE></THRESHOLD>
<THRESHOLD NAME="c" CONDITION="Critical" PRIORITY="100"><CODE><![CDATA[$T = $([Int] $PhysicalMemory * 1024) * 0.05
If ($T -lt 64) { $T = 64 }
StaticThreshold -CollectionOfCounterInstances $X -Operator 'lt' -Threshold $T]]></CODE></THRESHOLD>
<CHART CHARTTITLE="t" DATASOURCE="\O(*)\C" MAXLIMIT="100"><SERIES NAME="Warning"><CODE>StaticChartThreshold -CollectionOfCounterInstances $X -MinThreshold 1 -MaxThreshold 2 -UseMaxValue $True</CODE></SERIES></CHART>
<DESCRIPTION><![CDATA[<b>&amp;</b>]]></DESCRIPTION>
</ANALYSIS>
</PAL>`

// FuzzPALXML: Parse and Load never panic and take bounded time on any
// bytes; an error of Parse is a *palxml.SyntaxError whose offset is in
// the document; Load's errors name the file (the one asked for, or one it
// inherits).
func FuzzPALXML(f *testing.F) {
	f.Add([]byte(palSeed))
	f.Add([]byte(`<PAL PALVERSION="2.0"><INHERITANCE FILEPATH="f.xml"/></PAL>`))
	f.Add([]byte(strings.Repeat("<A>", 100)))
	f.Add([]byte(`<A b="` + strings.Repeat("x", 4096) + `"/>`))
	f.Add([]byte(`<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]><PAL PALVERSION="2.0">&b;</PAL>`))
	f.Add([]byte(`<PAL PALVERSION="2.0">` + strings.Repeat(`<ANALYSIS NAME="n"><DATASOURCE TYPE="CounterLog" NAME="\a\b" COLLECTIONVARNAME="X"/><THRESHOLD CONDITION="Warning"><CODE>StaticThreshold -CollectionOfCounterInstances $X -Operator gt -Threshold 1</CODE></THRESHOLD></ANALYSIS>`, 50) + `</PAL>`))
	f.Add([]byte{0xFF, 0xFE, '<', 0, 'P', 0, '/', 0, '>', 0})
	if b, err := os.ReadFile("../../shared/pal/WindowsUpdate.xml"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		root, err := palxml.Parse(data)
		if err != nil {
			var se *palxml.SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(data) {
				t.Fatalf("Parse: %v: want a *palxml.SyntaxError with an offset in 0..%d", err, len(data))
			}
		} else if root == nil {
			t.Fatal("Parse: nil root and no error")
		}
		asked := []string{"f.xml"} // the files Load read or tried to
		read := func(name string) ([]byte, error) {
			asked = append(asked, name)
			switch name {
			case "f.xml":
				return data, nil
			case "base.xml":
				return []byte(palSeed), nil
			}
			return nil, os.ErrNotExist
		}
		set, err := palxml.Load("f.xml", read, nil)
		if err != nil {
			named := false
			for _, n := range asked {
				named = named || n != "" && strings.Contains(err.Error(), n)
			}
			if !named {
				t.Fatalf("Load: %v: the error names none of the files %q", err, asked)
			}
		} else if set == nil {
			t.Fatal("Load: nil set and no error")
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Fatalf("took %v", d)
		}
	})
}

// FuzzPSExpr: Eval never panics, is deterministic, and its errors are
// *psexpr.Error with a position in the code.
func FuzzPSExpr(f *testing.F) {
	for _, s := range []string{
		`StaticThreshold -CollectionOfCounterInstances $X -Operator 'gt' -Threshold 100MB -IsTrendOnly $True`,
		"$T = $([Int] $PhysicalMemory * 1024) * 0.05\nIf ($T -lt 64)\n{\n$T = 64\n}\nStaticThreshold -CollectionOfCounterInstances $X -Operator 'lt' -Threshold $T",
		"If ($Edge -eq $false){ $t = 1 } ElseIf (1 -ne 2) { $t = 2 } Else { $t = 3 }; StaticChartThreshold -CollectionOfCounterInstances $X -MinThreshold $t -MaxThreshold 2 -UseMaxValue",
		"$OS = [string] $OS.ToUpper()\nswitch ($OS) { 'A' {$m = 1} default {$m = [Math]::Round(2.5)} }\n$s = $OS.Substring(0,2)",
		"For ($a=0;$a -lt $X.Count;$a++) { CreateAlert }",
		"#// comment\n<# block #>-not (1 -and 0 -or $true) % 3",
		strings.Repeat("(", 70) + "1",
		"[Int] $N = $Procs.Count - 1\nIf ($N -eq 0) { $N = 1 }\nStaticThreshold -CollectionOfCounterInstances $Q -Operator 'gt' -Threshold ($N * 2)",
	} {
		f.Add(s)
	}
	vars := map[string]psexpr.Value{"PhysicalMemory": psexpr.Str("16"), "Edge": psexpr.Boolean(true), "OS": psexpr.Str("Windows 7 64-bit"), "Procs": psexpr.Counted(5)}
	f.Fuzz(func(t *testing.T, code string) {
		calls, err := psexpr.Eval(code, vars)
		if err != nil {
			var pe *psexpr.Error
			if !errors.As(err, &pe) || pe.Pos < 0 || pe.Pos > len(code) && pe.Pos != psexpr.MaxCode {
				t.Fatalf("Eval(%q): %v: want a *psexpr.Error with a position in 0..%d", code, err, len(code))
			}
		}
		calls2, err2 := psexpr.Eval(code, vars)
		if !reflect.DeepEqual(calls, calls2) || (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			t.Fatalf("Eval(%q) is not deterministic", code)
		}
		if len(calls) > psexpr.MaxCalls {
			t.Fatalf("%d calls", len(calls))
		}
	})
}
