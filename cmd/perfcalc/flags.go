package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine"

	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/engine/termtext"
)

// pathList is a repeatable -c flag of counter paths (wildcards allowed).
type pathList []counterpath.Path

func (l *pathList) String() string {
	s := make([]string, len(*l))
	for i, p := range *l {
		s[i] = p.String()
	}
	return strings.Join(s, " ")
}

func (l *pathList) Set(v string) error {
	p, err := counterpath.Parse(v)
	if err != nil {
		return err
	}
	*l = append(*l, p)
	return nil
}

// digitsFlag is --digits: how many significant digits values have in
// PDH's text (CSV, TSV), 20 as current Windows writes them or 17 as
// Windows wrote them before about 2020.
type digitsFlag int

// optionsHelp is the options syntax (engine.ParseOptions) for the help
// texts of calc and values.
const optionsHelp = `Options (--options, comma-separated, in any order and case), applied after
the formula in this order:
  cap100    clamp percentages at 100 (PDH's default; relog does not)
  scale     multiply by 10^DefaultScale, the counter's (PDH's default);
            scale=S with the DefaultScale S (-10..10)
  1000      multiply by 1000 (PDH_FMT_1000)
  wrap32    read a backwards step of a 4-byte counter as a 32-bit wrap
The default is relog's output: no cap, no scaling.
`

// defaultMaxColumns is --max-columns' default: each column (a counter of
// one instance) holds about 0.75 KB (CSV, TSV, JSON) to 1.6 KB (Parquet)
// of resident memory from the first reading to the end, so that a million
// columns stay under about 2 GB (doc/COMMANDS.md §4).
const defaultMaxColumns = 1_000_000

// addMaxColumnsFlag registers --max-columns on fs.
func addMaxColumnsFlag(fs *flag.FlagSet) *int {
	n := maxColumnsFlag(defaultMaxColumns)
	fs.Var(&n, "max-columns", "refuse logs of more columns (counters of distinct instances, about 1-2 KB of memory each); 0: no limit")
	return (*int)(&n)
}

// maxColumnsFlag is --max-columns: a number of columns, 0 for no limit.
type maxColumnsFlag int

func (n *maxColumnsFlag) String() string { return strconv.Itoa(int(*n)) }

func (n *maxColumnsFlag) Set(v string) error {
	k, err := strconv.Atoi(v)
	if err != nil || k < 0 {
		return errors.New("want a number of columns, 0 for no limit")
	}
	*n = maxColumnsFlag(k)
	return nil
}

// columnsError words relog's *relog.ColumnsError for people, naming the
// logs and the flag that raises the limit; other errors are returned as
// they are.
func columnsError(err error, names []string) error {
	var ce *relog.ColumnsError
	if !errors.As(err, &ce) {
		return err
	}
	err = fmt.Errorf("more than %d columns (counters of distinct instances, about 1-2 KB of memory each): refused before memory runs out; --max-columns N raises the limit (0: none)", ce.Max)
	if len(names) == 1 {
		return &fileError{names[0], err}
	}
	return fmt.Errorf("the logs: %w", err)
}

// addDigitsFlag registers --digits on fs with the given default.
func addDigitsFlag(fs *flag.FlagSet, def int) *digitsFlag {
	d := digitsFlag(def)
	fs.Var(&d, "digits", "significant digits of the values: 20 (current Windows) or 17 (Windows before about 2020)")
	return &d
}

func (d *digitsFlag) String() string { return strconv.Itoa(int(*d)) }

func (d *digitsFlag) Set(v string) error {
	switch n, _ := strconv.Atoi(v); n {
	case engine.DefaultDigits, engine.LegacyDigits:
		*d = digitsFlag(n)
		return nil
	}
	return errors.New("want 20 (current Windows) or 17 (Windows before about 2020)")
}

// parseArgs parses flags placed before, between or after the positional
// arguments (perfcalc relog IN.blg -f csv), and returns the positional
// ones. After "--" every argument is positional.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// parseCommandArgs parses a command's flags, which may come before,
// between or after its positional arguments, and returns the positional
// arguments; or false and the exit status: 0 after -h, whose usage goes to
// standard output, and 2 after a bad flag, which gets one line on standard
// error ending with "(see perfcalc CMD -h)". A value that a flag refuses is
// named by its flag and shown as given (the flag package would quote it,
// doubling every backslash of a counter path).
func parseCommandArgs(fs *flag.FlagSet, usage string, args []string, stdout, stderr io.Writer) ([]string, int, bool) {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var bad flagFailure
	orig := map[string]flag.Value{}
	fs.VisitAll(func(f *flag.Flag) {
		orig[f.Name] = f.Value
		r := recordingValue{Value: f.Value, name: f.Name, fail: &bad}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			f.Value = recordingBool{r}
		} else {
			f.Value = r
		}
	})
	pos, err := parseArgs(fs, args)
	// The flag package names the types in -h by the values' own types.
	fs.VisitAll(func(f *flag.Flag) { f.Value = orig[f.Name] })
	if err == nil {
		return pos, exitOK, true
	}
	name := fs.Name()
	if errors.Is(err, flag.ErrHelp) {
		io.WriteString(stdout, usage)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return nil, exitOK, false
	}
	msg := err.Error()
	if bad.err != nil {
		msg = bad.String()
	}
	fmt.Fprintf(stderr, "perfcalc %s: %s (see perfcalc %s -h)\n", name, strings.ReplaceAll(msg, "\n", " "), name)
	return nil, exitUsage, false
}

// flagFailure is a flag value that its flag refused.
type flagFailure struct {
	name, value string
	err         error
}

// String names the flag as its usage writes it (-c, --digits) and says
// what is wrong, showing the value as given when the error does not.
func (f *flagFailure) String() string {
	name := "-" + f.name
	if len(f.name) > 2 {
		name = "-" + name
	}
	msg := f.err.Error()
	switch msg {
	case "parse error": // the flag package's numbers and booleans
		msg = "not a valid value"
	case "value out of range":
		msg = "out of range"
	}
	if !strings.Contains(msg, f.value) {
		return name + " " + f.value + ": " + msg
	}
	return name + ": " + msg
}

// recordingValue is a flag.Value that records the first value refused.
type recordingValue struct {
	flag.Value
	name string
	fail *flagFailure
}

func (v recordingValue) Set(s string) error {
	err := v.Value.Set(s)
	if err != nil && v.fail.err == nil {
		*v.fail = flagFailure{name: v.name, value: s, err: err}
	}
	return err
}

// recordingBool keeps a boolean flag boolean (-q, not -q=true).
type recordingBool struct{ recordingValue }

func (recordingBool) IsBoolFlag() bool { return true }

// counterFlags are -c PATH (repeatable) and -cf FILE, a counter file as
// relog and typeperf read it: one path per line, blank lines and lines
// starting with # ignored (counterpath.ParseList).
type counterFlags struct {
	c  pathList
	cf string
}

// register adds -c and -cf to fs; what says what the paths do ("keep the
// counters matching this path").
func (f *counterFlags) register(fs *flag.FlagSet, what string) {
	fs.Var(&f.c, "c", what+" (wildcards allowed); repeatable")
	fs.StringVar(&f.cf, "cf", "", "a file of counter paths, one per line (# comments): as -c for each")
}

// paths returns the paths of -c, then those of -cf's file ("-": standard
// input). A file that cannot be read is an error; one that is not a counter
// file (or lists no path) is a *usageError.
func (f *counterFlags) paths(stdin *stdinOnce) (pathList, error) {
	if f.cf == "" {
		return f.c, nil
	}
	text, err := readInput(f.cf, "-cf", stdin, counterFileLimit)
	if err != nil {
		return nil, fmt.Errorf("-cf: %w", err)
	}
	list, err := counterpath.ParseList(text)
	if err != nil {
		return nil, &usageError{"-cf " + f.cf + ": " + err.Error()}
	}
	if len(list) == 0 {
		return nil, &usageError{"-cf " + f.cf + ": the file lists no counter path"}
	}
	return append(f.c[:len(f.c):len(f.c)], list...), nil
}

// usageError is a command-line mistake found after the flags were parsed:
// exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// failCommand prints one line "perfcalc CMD: err" and returns the exit status:
// 2 for a usage error, 1 otherwise.
func failCommand(stderr io.Writer, cmd string, err error) int {
	// One line, whatever names from a log or a file the error quotes:
	// their control characters escaped (termtext), never sent raw.
	msg := termtext.Visible(strings.ReplaceAll(err.Error(), "\n", " "))
	fmt.Fprintf(stderr, "perfcalc %s: %s\n", cmd, msg)
	var u *usageError
	if errors.As(err, &u) {
		return exitUsage
	}
	return exitError
}
