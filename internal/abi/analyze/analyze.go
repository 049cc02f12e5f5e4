// Package analyze is perfcalc analyze behind the module's ABI: the body of
// the analyze export (wasm) and of host.Native's Analyze, the same code in
// both. It loads the threshold files that a host gives as bytes (package
// palxml, INHERITANCE resolved among them by name), runs the analyses
// (package analysis) over a .blg log and writes the report's JSON, the
// form perfcalc analyze -f json writes.
//
// It is a package of its own, apart from package abi, so that
// perfcalc.wasm, which leaves the analyze export to the analyze module
// (perfcalc-analyze.wasm, the build tag perfcalcanalyze), does not link the
// analysis packages: their initialisation alone would keep them in it.
//
// # Security
//
// Threshold files, values and logs are untrusted: palxml and analysis
// bound their work and refuse bad input with an error naming what and
// where; a threshold file named by INHERITANCE must be among those given
// (nothing is read from elsewhere).
package analyze

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/analysis"
	"github.com/perfcalc/perfcalc/analysis/palxml"
	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/abi"
)

// ThresholdFile is a PAL threshold file given to Run: its name (the
// one INHERITANCE elements name it by), its bytes, and whether it is run.
type ThresholdFile struct {
	Name string
	Data []byte
	// Run runs the file's analyses (perfcalc analyze --thresholds FILE);
	// a file not run is there only for the INHERITANCE of others.
	Run bool
}

// ErrFlags refuses reserved bits of analyze's flags.
var ErrFlags error = &abi.Error{Code: abi.CodeArgument, Text: "perfcalc: analyze: reserved bits set in flags"}

// ErrInterval refuses a negative interval.
var ErrInterval error = &abi.Error{Code: abi.CodeArgument, Text: "perfcalc: analyze: the interval is negative (0 is automatic)"}

// Request is what Run runs over a log besides it: the threshold
// files (none run: perfcalc's own analyses, analysis.Defaults), the
// question variables' values (--set NAME=VALUE) and Run's options.
type Request struct {
	Files   []ThresholdFile
	Values  map[string]string
	Options analysis.Options
	// Identity is how the logs' instances are paired (identity.PID:
	// perfcalc analyze --identity pid; the report then says so, with its
	// identity breaks).
	Identity identity.Mode
	// Rename, when not nil, returns the relog.Options.Rename of the logs
	// of one machine (names in other languages: the module's names_load
	// sources with the tables those logs embed); nil translates nothing.
	Rename func(logs [][]byte) (func(object, counter string) (string, string), error)
}

// Run runs the analyses of a over the .blg logs (the module's analyze
// export, host.Native's Analyze) and appends the report's JSON to dst:
// what perfcalc analyze -f json writes for them (trimmed of any final
// newline, then one newline; analysis.Report.AppendJSON). The analyses are
// LoadSet's, run by analysis.Run with a.Options over relog's conversion of
// the whole log. Several logs are grouped by machine as the command groups
// them (analysis.MachineGroups; at most relog.MaxInputs of one machine):
// the logs of one machine are merged as the command merges them
// (relog.Merge; the k-th log is named "log k" in errors), and the logs of
// several machines give one report per machine in the fleet JSON the
// command writes for them (analysis.AppendFleetJSON). damage is why a log
// ends early (the report covers the samples before it, as the command's,
// which then exits with status 1; with several machines, the first
// machine's damage), apart from the errors that refuse the logs (a log
// that cannot be read, where the command leaves it out of the report),
// the files or the options.
func Run(dst []byte, logs [][]byte, a *Request) (out []byte, damage, err error) {
	if a.Options.Interval < 0 {
		return dst, nil, ErrInterval
	}
	set, err := LoadSet(a.Files, a.Values)
	if err != nil {
		return dst, nil, err
	}
	if len(logs) == 0 {
		return dst, nil, ErrNoLog
	}
	groups, failed, err := analysis.MachineGroups(len(logs), func(i int) (string, error) {
		c, err := abi.OpenLog(logs[i], relog.Options{})
		if err != nil {
			return "", err
		}
		return analysis.LogMachine(c), nil
	})
	if ge, ok := err.(*analysis.GroupsError); ok {
		return dst, nil, &abi.Error{Code: abi.CodeLimit, Text: "perfcalc: analyze: " + strconv.Itoa(ge.Count) + " logs of one machine (log " + strconv.Itoa(ge.First+1) + " …): perfcalc merges at most " + strconv.Itoa(relog.MaxInputs)}
	}
	if len(failed) > 0 {
		return dst, nil, failed[0]
	}
	reports := make([]*analysis.Report, 0, len(groups))
	for _, g := range groups {
		in := make([][]byte, len(g))
		for k, i := range g {
			in[k] = logs[i]
		}
		opts := relog.Options{Identity: a.Identity}
		if a.Rename != nil {
			if opts.Rename, err = a.Rename(in); err != nil {
				return dst, nil, err
			}
		}
		c, err := open(in, g, opts)
		if err != nil {
			return dst, nil, err
		}
		r, err := analysis.Run(c, set, a.Options)
		if r == nil {
			return dst, nil, err
		}
		if a.Identity == identity.PID {
			r.Identity, r.IdentityBreaks = "pid", c.IdentityBreaks()
		}
		if damage == nil {
			damage = err
		}
		reports = append(reports, r)
	}
	if len(reports) == 1 {
		out = reports[0].AppendJSON(dst)
	} else {
		out = analysis.AppendFleetJSON(dst, reports)
	}
	for len(out) > len(dst) && out[len(out)-1] == '\n' {
		out = out[:len(out)-1]
	}
	return append(out, '\n'), damage, nil
}

// ErrNoLog refuses an analysis of no log.
var ErrNoLog error = &abi.Error{Code: abi.CodeArgument, Text: "perfcalc: analyze: no log"}

// open opens one log, or several of one machine merged (idx: their
// indexes among the logs given, for their names in errors: "log k").
func open(logs [][]byte, idx []int, opts relog.Options) (*relog.Converter, error) {
	if len(logs) == 1 {
		return abi.OpenLog(logs[0], opts)
	}
	in := make([]relog.Input, len(logs))
	for i, l := range logs {
		in[i] = relog.Input{R: bytes.NewReader(l), Size: int64(len(l)), Name: "log " + strconv.Itoa(idx[i]+1)}
	}
	return relog.Merge(in, opts)
}

// MissingFile returns the name of the threshold file that an INHERITANCE
// names and that was not given, when that refused the files (err is
// Run's or LoadSet's error): the name as the INHERITANCE names it,
// resolved against the folder of the file that inherits it. The module's
// analyze gives it to the host as data (ABI.md, analyze), so that a host
// finds the file and calls again.
//
// (Type assertions, not errors.As, which would link internal/reflectlite
// into the module.)
func MissingFile(err error) (name string, ok bool) {
	for err != nil {
		switch e := err.(type) {
		case *palxml.InheritanceError:
			return e.File, true
		case *palxml.Error:
			if e.Err == nil {
				return "", false
			}
			err = e.Err
		default:
			return "", false
		}
	}
	return "", false
}

// LoadSet returns the analyses of the files that are run among files,
// with values, as perfcalc analyze --thresholds FILE... --set NAME=VALUE...
// loads them: each file run is loaded by palxml.LoadFiles with the values
// of its own questions (INHERITANCE reads the files among files, by name:
// ASCII case and folders ignored; a file reached by several names is
// loaded once), and several are joined (analysis.Join).
// Without a file run, perfcalc's own analyses (analysis.Defaults). A value
// that no file asks for is an error, as in the command.
func LoadSet(files []ThresholdFile, values map[string]string) (*analysis.Set, error) {
	// A file given is identified by its index: the names that reach it
	// (another folder, another case) load it once (palxml.LoadFiles).
	read := func(name string) (palxml.File, error) {
		for i := range files {
			if sameFile(files[i].Name, name) {
				return palxml.File{Data: files[i].Data, ID: strconv.Itoa(i)}, nil
			}
		}
		return palxml.File{}, &abi.Error{Code: abi.CodeInput, Text: "perfcalc: analyze: no threshold file named " + name + " was given (INHERITANCE needs it)"}
	}
	var sets []*analysis.Set
	asked := map[string]bool{}
	for i := range files {
		if !files[i].Run {
			continue
		}
		name := files[i].Name
		own := map[string]string{}
		for k, v := range values {
			// A value is the file's unless Load refuses it as asked by
			// no question (the command's test, the same).
			if _, err := palxml.LoadFiles(name, read, map[string]string{k: v}); !noQuestion(err) {
				own[k], asked[k] = v, true
			}
		}
		s, err := palxml.LoadFiles(name, read, own)
		if err != nil {
			return nil, err
		}
		sets = append(sets, s)
	}
	var set *analysis.Set
	switch len(sets) {
	case 0:
		set = analysis.Defaults()
	case 1:
		set = sets[0]
	default:
		set = analysis.Join(sets...)
	}
	var unknown []string
	for k := range values {
		if !asked[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		return nil, noSuchQuestion(unknown, set, len(sets) == 0)
	}
	return set, nil
}

// noQuestion reports whether err is palxml's refusal of a value that no
// question of the file asks for.
//
// (Type assertions, not errors.As, which would link internal/reflectlite
// into the module: Load returns the *palxml.Error itself.)
func noQuestion(err error) bool {
	pe, ok := err.(*palxml.Error)
	if !ok {
		return false
	}
	_, ok = pe.Err.(*palxml.NoQuestionError)
	return ok
}

// noSuchQuestion is the error of values (names) that no threshold file
// asks for, in the command's words.
func noSuchQuestion(names []string, set *analysis.Set, defaults bool) error {
	abi.SortNames(names)
	which := "perfcalc's default analyses ask none; --set is for threshold files' questions"
	if !defaults {
		which = "the threshold files ask none"
		if len(set.Questions) > 0 {
			which = "the threshold files ask "
			for i, q := range set.Questions {
				if i > 0 {
					which += ", "
				}
				which += q.Var
			}
		}
	}
	return &abi.Error{Code: abi.CodeArgument, Text: "perfcalc: analyze: --set " + strings.Join(names, ", ") + ": no such question (" + which + ")"}
}

// sameFile reports whether the file names a and b name the same file:
// their last elements (after the last / or \) are equal, ASCII case
// ignored, as on Windows, where PAL's files name each other
// ("dynamicsax.xml" for DynamicsAX.xml).
func sameFile(a, b string) bool {
	a, b = baseName(a), baseName(b)
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerASCII(a[i]) != lowerASCII(b[i]) {
			return false
		}
	}
	return true
}

func baseName(s string) string {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' || s[i] == '\\' {
			return s[i+1:]
		}
	}
	return s
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
