package palxml

import (
	"errors"
	"github.com/perfcalc/perfcalc/tools/timebound"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/tools/hostile"
)

// one reads the file data under any name.
func one(data []byte) func(string) ([]byte, error) {
	return func(string) ([]byte, error) { return data, nil }
}

// TestManyQuestions (issue 32, item 5): 40,000 questions took 47 s, each
// compared with every earlier one; they are found by a map now.
func TestManyQuestions(t *testing.T) {
	const n = 100_000
	data := hostile.ManyQuestions(n)
	timebound.Within(t, 20*time.Second, "the load", func() {
		set, err := Load("q.xml", one(data), map[string]string{"QXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX99999": "2"})
		if err != nil {
			t.Error(err)
			return
		}
		if len(set.Questions) != n || set.Values["Qxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx99999"] != "2" {
			t.Errorf("have %d questions, Q…99999 = %q; want %d, 2", len(set.Questions), set.Values["Qxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx99999"], n)
		}
	})
}

// TestQuestionsTimesAnalyses (issue 32, item 6): 2,000 questions × 20,000
// analyses took 35 s, every question variable copied and lower-cased for
// each analysis (and again by each evaluation); they are made once.
func TestQuestionsTimesAnalyses(t *testing.T) {
	data := hostile.QuestionsAnalyses(4_000, 20_000)
	timebound.Within(t, 20*time.Second, "the load", func() {
		set, err := Load("q.xml", one(data), nil)
		if err != nil {
			t.Error(err)
			return
		}
		if len(set.Questions) != 4_000 || len(set.Analyses) != 20_000 || len(set.Unsupported) != 0 {
			t.Errorf("have %d questions, %d analyses, %d unsupported", len(set.Questions), len(set.Analyses), len(set.Unsupported))
		}
	})
}

// TestTrimCalls (issue 32, item 7): a threshold calling .Trim() 9,000
// times on a 4 MiB question default took 149 s; it is evaluated in
// milliseconds. The work of string members that go through the whole
// string is bounded across the file's code (MaxWork): 40 thresholds that
// each upper-case it 6,000 times are listed as unsupported, the work
// refused, in a bounded time.
func TestTrimCalls(t *testing.T) {
	data := hostile.TrimCalls(4<<20, 9_000)
	timebound.Within(t, 20*time.Second, "the load", func() {
		set, err := Load("t.xml", one(data), nil)
		if err != nil {
			t.Error(err)
			return
		}
		if len(set.Analyses) != 1 || len(set.Analyses[0].Thresholds) != 1 || len(set.Unsupported) != 0 {
			t.Errorf("have %+v, want one threshold, nothing unsupported", set.Unsupported)
		}
	})
	var b strings.Builder
	b.WriteString(`<PAL PALVERSION="2.0"><QUESTION QUESTIONVARNAME="S" DATATYPE="string" DEFAULTVALUE="` + strings.Repeat("x", 4<<20) + `"/>`)
	for i := range 40 {
		b.WriteString(`<ANALYSIS NAME="A` + strconv.Itoa(i) + `"><DATASOURCE TYPE="CounterLog" NAME="\P(*)\C" COLLECTIONVARNAME="C"/><THRESHOLD NAME="T" CONDITION="Warning"><CODE>$t = $S` + strings.Repeat(".ToUpper()", 6000) + "\nStaticThreshold -CollectionOfCounterInstances $C -Operator 'gt' -Threshold 1</CODE></THRESHOLD></ANALYSIS>")
	}
	b.WriteString(`</PAL>`)
	timebound.Within(t, 20*time.Second, "the load", func() {
		set, err := Load("t.xml", one([]byte(b.String())), nil)
		if err != nil {
			t.Error(err)
			return
		}
		if len(set.Unsupported) != 40 || !strings.Contains(set.Unsupported[39].Reason, "work allowed") {
			t.Errorf("have %d unsupported, want 40, the work refused", len(set.Unsupported))
		}
	})
}

// TestLoadFilesIdentity (issue 32, item 10): a file inheriting itself
// under 64 other names (/proc/self/root/… prefixes) was loaded 64 times;
// LoadFiles reads a file of one identity once, and bounds the bytes of all
// files together (MaxTotal).
func TestLoadFilesIdentity(t *testing.T) {
	var names []string
	for i := 1; i <= 64; i++ {
		names = append(names, strings.Repeat("/proc/self/root", i)+"/t/self.xml")
	}
	self := hostile.SelfInheriting(names, 1<<20)
	reads := 0
	read := func(name string) (File, error) {
		reads++
		if strings.TrimLeft(strings.ReplaceAll(name, "/proc/self/root", ""), "/") != "t/self.xml" {
			return File{}, errors.New("no file " + name)
		}
		return File{Data: self, ID: "inode 1"}, nil
	}
	set, err := LoadFiles("/t/self.xml", read, nil)
	if err != nil {
		t.Fatal(err)
	}
	if reads != 65 || len(set.Analyses) != 1 {
		t.Errorf("have %d reads, %d analyses; want 65 (each name once, parsed once), 1", reads, len(set.Analyses))
	}
	// Two distinct files of MaxInput bytes are more than MaxTotal with a
	// third.
	big := func(inherit string) []byte {
		s := `<PAL PALVERSION="2.0"><INHERITANCE FILEPATH="` + inherit + `"/><!--`
		return []byte(s + strings.Repeat("x", MaxInput-len(s)-10) + `--></PAL>`)
	}
	files := map[string][]byte{"a.xml": big("b.xml"), "b.xml": big("c.xml"), "c.xml": big("a.xml")}
	_, err = LoadFiles("a.xml", func(name string) (File, error) { return File{Data: files[name], ID: name}, nil }, nil)
	var pe *Error
	if !errors.As(err, &pe) || pe.File != "c.xml" || !strings.Contains(err.Error(), "larger than 33554432 bytes together") {
		t.Errorf("have %v, want c.xml refused: the files larger than MaxTotal together", err)
	}
}

// TestDatasourcesTimesThresholds: each threshold's collection was looked
// for among all of its analysis' datasources; they are found in a map.
// One analysis of 40,000 datasources and 40,000 thresholds, whose
// variables share a prefix of 24 letters.
func TestDatasourcesTimesThresholds(t *testing.T) {
	const n = 40_000
	var b strings.Builder
	b.WriteString(`<PAL PALVERSION="2.0"><ANALYSIS NAME="W">`)
	for i := range n {
		b.WriteString(`<DATASOURCE TYPE="CounterLog" NAME="\P(*)\C` + strconv.Itoa(i) + `" COLLECTIONVARNAME="CollectionVariableNumber` + strconv.Itoa(i) + `"/>`)
	}
	for i := range n {
		b.WriteString(`<THRESHOLD NAME="T` + strconv.Itoa(i) + `" CONDITION="Warning"><CODE>StaticThreshold -CollectionOfCounterInstances $collectionvariablenumber` + strconv.Itoa(n-1-i) + ` -Operator 'gt' -Threshold 1</CODE></THRESHOLD>`)
	}
	b.WriteString(`</ANALYSIS></PAL>`)
	timebound.Within(t, 20*time.Second, "the load", func() {
		set, err := Load("w.xml", one([]byte(b.String())), nil)
		if err != nil {
			t.Error(err)
			return
		}
		a := set.Analyses[0]
		if len(a.Thresholds) != n || a.Thresholds[0].Datasource != `\P(*)\C`+strconv.Itoa(n-1) || len(set.Unsupported) != 0 {
			t.Errorf("have %d thresholds, the first of %q, %d unsupported", len(a.Thresholds), a.Thresholds[0].Datasource, len(set.Unsupported))
		}
	})
}
