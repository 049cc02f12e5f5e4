package hostile

import (
	"strconv"
	"strings"
)

// The hostile threshold files of issue 32 (items 5 to 10): PAL v2 files
// (doc/ANALYSIS.md §9) that cost a loader quadratic time or memory.

const (
	palHead = "<?xml version=\"1.0\"?>\n<PAL PALVERSION=\"2.0\" NAME=\"Hostile\">\n"
	palTail = "</PAL>\n"
)

// question appends a QUESTION of the variable name (a string question with
// the default def).
func question(b *strings.Builder, name, def string) {
	b.WriteString(`<QUESTION QUESTIONVARNAME="`)
	b.WriteString(name)
	b.WriteString(`" DATATYPE="string" DEFAULTVALUE="`)
	b.WriteString(def)
	b.WriteString("\">Q</QUESTION>\n")
}

// analysisElem appends an ANALYSIS named name over \Processor(*)\% Processor
// Time with one threshold whose CODE is code (a StaticThreshold call on
// its datasource, $C, follows it).
func analysisElem(b *strings.Builder, name, code string) {
	b.WriteString(`<ANALYSIS NAME="`)
	b.WriteString(name)
	b.WriteString(`" ENABLED="True" CATEGORY="Processor" PRIMARYDATASOURCE="\Processor(*)\% Processor Time">`)
	b.WriteString("\n<DATASOURCE TYPE=\"CounterLog\" NAME=\"\\Processor(*)\\% Processor Time\" COLLECTIONVARNAME=\"C\"/>\n")
	b.WriteString(`<THRESHOLD NAME="T" CONDITION="Warning" PRIORITY="50"><CODE><![CDATA[`)
	b.WriteString(code)
	b.WriteString("\nStaticThreshold -CollectionOfCounterInstances $C -Operator 'gt' -Threshold 50]]></CODE></THRESHOLD>\n</ANALYSIS>\n")
}

// questionPrefix starts the variable of each question of ManyQuestions
// and QuestionsAnalyses.
var questionPrefix = "Q" + strings.Repeat("x", 40)

// ManyQuestions returns a threshold file of n questions and one analysis:
// issue 32's item 5 at n = 40,000 (each question compared with every
// earlier one: 47 s). The questions' variables share a prefix of 40
// letters (Qxxx…x0, Qxxx…x1, …), which a comparison goes through.
func ManyQuestions(n int) []byte {
	return QuestionsAnalyses(n, 1)
}

// QuestionsAnalyses returns a threshold file of questions questions and
// analyses analyses (A0, A1, …, each with one threshold): issue 32's item
// 6 at 2,000 × 20,000 (every question variable copied per analysis: 35 s).
func QuestionsAnalyses(questions, analyses int) []byte {
	var b strings.Builder
	b.WriteString(palHead)
	for i := range questions {
		question(&b, questionPrefix+strconv.Itoa(i), "1")
	}
	for i := range analyses {
		analysisElem(&b, "A"+strconv.Itoa(i), "")
	}
	b.WriteString(palTail)
	return []byte(b.String())
}

// TrimCalls returns a threshold file with a question S whose default is
// size bytes ('x') and one threshold whose code calls .Trim() calls times
// on it: issue 32's item 7 at 4 MiB × 9,000 (each member call converting
// the whole string to runes: 149 s).
func TrimCalls(size, calls int) []byte {
	var b strings.Builder
	b.WriteString(palHead)
	question(&b, "S", strings.Repeat("x", size))
	analysisElem(&b, "Trim", "$t = $S"+strings.Repeat(".Trim()", calls))
	b.WriteString(palTail)
	return []byte(b.String())
}

// RegexpDatasources returns a threshold file of n analyses, each with a
// datasource of the counter counter whose object is a regular expression
// of 120 alternatives ".*qN.*" (N the analysis' number: each compiles its
// own) and "^Wide": costly to match against each of OneObjectLog's long
// object name, which it matches; issue 32's item 8 at n = 100 (matched
// per column: 197 s on 10,000 columns).
func RegexpDatasources(n int, counter string) []byte {
	var b strings.Builder
	b.WriteString(palHead)
	for i := range n {
		re := "\\" + ObjectPattern(i) + "(*)\\" + counter
		b.WriteString(`<ANALYSIS NAME="R`)
		b.WriteString(strconv.Itoa(i))
		b.WriteString(`" ENABLED="True" CATEGORY="Wide">`)
		b.WriteString(`<DATASOURCE TYPE="CounterLog" NAME="\Wide(*)\`)
		b.WriteString(counter)
		b.WriteString(`" COLLECTIONVARNAME="C" ISCOUNTEROBJECTREGULAREXPRESSION="True" REGULAREXPRESSIONCOUNTERPATH="`)
		b.WriteString(re)
		b.WriteString("\"/>\n<THRESHOLD NAME=\"T\" CONDITION=\"Warning\"><CODE>StaticThreshold -CollectionOfCounterInstances $C -Operator 'gt' -Threshold 50</CODE></THRESHOLD>\n</ANALYSIS>\n")
	}
	b.WriteString(palTail)
	return []byte(b.String())
}

// ObjectPattern is the object regular expression of RegexpDatasources'
// analysis i: 120 alternatives ".*qi.*", then "^Wide".
func ObjectPattern(i int) string {
	return strings.Repeat(".*q"+strconv.Itoa(i)+".*|", 120) + "^Wide"
}

// SelfInheriting returns a threshold file of about size bytes (padded by
// a comment) whose INHERITANCEs name each of names: other names of the file
// itself (its path through /proc/self/root prefixes, links to it): issue
// 32's item 10, where a 16 MiB file under 64 names was loaded 64 times
// (1.7 GB).
func SelfInheriting(names []string, size int) []byte {
	var b strings.Builder
	b.WriteString(palHead)
	for _, n := range names {
		b.WriteString(`<INHERITANCE FILEPATH="`)
		b.WriteString(n)
		b.WriteString("\"/>\n")
	}
	analysisElem(&b, "A", "")
	if pad := size - b.Len() - len(palTail) - 8; pad > 0 {
		b.WriteString("<!--")
		b.WriteString(strings.Repeat("x", pad))
		b.WriteString("-->\n")
	}
	b.WriteString(palTail)
	return []byte(b.String())
}

// Inheriting returns a small threshold file whose INHERITANCE names path
// (a FIFO or /dev/stdin: issue 32's item 9, which blocked forever).
func Inheriting(path string) []byte {
	var b strings.Builder
	b.WriteString(palHead)
	b.WriteString(`<INHERITANCE FILEPATH="`)
	b.WriteString(path)
	b.WriteString("\"/>\n")
	analysisElem(&b, "A", "")
	b.WriteString(palTail)
	return []byte(b.String())
}

// OneObject is the object of OneObjectLog: "Wide" and 250 'x'.
var OneObject = "Wide" + strings.Repeat("x", 250)

// OneObjectLog returns a .blg log of columns columns of one object,
// OneObject (\\WIDE\OneObject(processN)\counter), and two samples: the
// log of issue 32's item 8.
func OneObjectLog(columns int, counter string) []byte {
	return wideLog(OneObject, []string{counter}, columns, 2)
}
