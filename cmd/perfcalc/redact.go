package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/relog"
)

// redactor renames what a log says of the machines it comes from (relog
// --redact): each machine becomes MACHINE-1, MACHINE-2, … in order of first
// appearance (or as --redact-map FILE already names it), and the instance
// and parent names of the objects of --redact-instances become a salted
// hash. Values are untouched.
type redactor struct {
	pseudo  map[string]string // machine name, upper case, without \\ → pseudonym
	order   [][2]string       // pseudonym, machine name as first met: the map's lines
	next    int               // the next pseudonym's number
	objects []string          // the objects whose instances are hashed
	salt    string
}

// newRedactor reads the map file, when it exists, so that a machine keeps
// its pseudonym from one run to the next. The map must be one to one: a
// pseudonym given to two machines would merge them, and a machine given
// two pseudonyms (names that differ only in case are one machine) would
// have one of them only; both are refused, naming the file and the line,
// as is a pseudonym not written as the map writes it (MACHINE-01 for
// MACHINE-1). A line that repeats an earlier one is left out. A pseudonym
// that is also the name of a machine that the map does not name (a log
// of a machine named MACHINE-1) is accepted: that machine gets a
// pseudonym of its own, numbered after every pseudonym of the map, so no
// two machines share one.
func newRedactor(mapFile string, objects []string, salt string) (*redactor, error) {
	r := &redactor{pseudo: map[string]string{}, next: 1, objects: objects, salt: salt}
	if mapFile == "" {
		return r, nil
	}
	f, err := os.Open(mapFile)
	if errors.Is(err, os.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--redact-map: %v", err)
	}
	defer f.Close()
	type given struct {
		line    int
		machine string // as the line names it
	}
	byPseudo := map[string]given{}  // the line that gave each pseudonym
	machineLine := map[string]int{} // the line that named each machine (upper case)
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		pseudo, escaped, ok := strings.Cut(sc.Text(), "\t")
		n, err := strconv.Atoi(strings.TrimPrefix(pseudo, "MACHINE-"))
		machine, uerr := unescapeField(escaped)
		if !ok || err != nil || uerr != nil || n < 1 || pseudo != "MACHINE-"+strconv.Itoa(n) || machine == "" {
			return nil, fmt.Errorf("--redact-map %s: line %d is not MACHINE-<n><tab><machine name>", mapFile, line)
		}
		key := strings.ToUpper(machine)
		had, named := r.pseudo[key]
		g, taken := byPseudo[pseudo]
		switch {
		case named && had == pseudo:
			continue // a line repeated
		case taken:
			return nil, fmt.Errorf("--redact-map %s: line %d gives %s to %s, which line %d gives to %s: the two machines would merge (a pseudonym names one machine)",
				mapFile, line, pseudo, machine, g.line, g.machine)
		case named:
			return nil, fmt.Errorf("--redact-map %s: line %d gives %s the pseudonym %s, which line %d gives %s (a machine has one pseudonym; names that differ only in case are one machine)",
				mapFile, line, machine, pseudo, machineLine[key], had)
		}
		r.pseudo[key] = pseudo
		r.order = append(r.order, [2]string{pseudo, machine})
		byPseudo[pseudo], machineLine[key] = given{line, machine}, line
		r.next = max(r.next, n+1)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("--redact-map %s: %v", mapFile, err)
	}
	return r, nil
}

// machine returns the pseudonym of a machine name (with or without its
// leading \\, kept as given); "" stays "". Names that differ only in case
// are one machine, as PDH compares them.
func (r *redactor) machine(name string) string {
	bare := strings.TrimPrefix(name, `\\`)
	if bare == "" {
		return name
	}
	key := strings.ToUpper(bare)
	p, ok := r.pseudo[key]
	if !ok {
		p = "MACHINE-" + strconv.Itoa(r.next)
		r.next++
		r.pseudo[key] = p
		r.order = append(r.order, [2]string{p, bare})
	}
	return name[:len(name)-len(bare)] + p
}

// hashes reports whether the instances of object are hashed.
func (r *redactor) hashes(object string) bool {
	for _, o := range r.objects {
		if strings.EqualFold(o, object) {
			return true
		}
	}
	return false
}

// hash returns the salted hash of an instance name: "h" and 16 hex digits
// of SHA-256(salt, NUL, name); "" and "*" stay.
func (r *redactor) hash(name string) string {
	if name == "" || name == "*" {
		return name
	}
	sum := sha256.Sum256([]byte(r.salt + "\x00" + name))
	return "h" + hex.EncodeToString(sum[:8])
}

// fullInstance hashes a full instance name, parent/name, part by part
// (the #n that relog adds to repeated names is the reader's, not hashed).
func (r *redactor) fullInstance(object, full string) string {
	if !r.hashes(object) {
		return full
	}
	parent, name, index := counterpath.SplitInstance(full)
	out := r.hash(name)
	if parent != "" {
		out = r.hash(parent) + "/" + out
	}
	if index > 0 {
		out += "#" + strconv.Itoa(index)
	}
	return out
}

// path redacts a column's parts.
func (r *redactor) path(p counterpath.Path) counterpath.Path {
	p.Machine = r.machine(p.Machine)
	if p.HasInstance && r.hashes(p.Object) {
		p.Instance = r.hash(p.Instance)
		if p.Parent != "" {
			p.Parent = r.hash(p.Parent)
		}
	}
	return p
}

// counter redacts a counter-list entry of a log rewritten entry by entry.
func (r *redactor) counter(c *blg.CounterInfo) {
	c.Machine = r.machine(c.Machine)
	if r.hashes(c.Object) {
		c.Instance = r.hash(c.Instance)
		c.Parent = r.hash(c.Parent)
	}
}

// header redacts a log header: the log's file name on the logging machine
// (which often names it) is left out.
func (r *redactor) header(h *blg.LogHeader) { h.LogFileName = "" }

// writeMap writes the map of pseudonyms, one "MACHINE-<n><tab><name>" line
// each (the name's control characters, DEL and % as %XX: escapeField, so
// that a log's machine name cannot forge a line of the map), through a
// temporary file (complete or left as it was).
func (r *redactor) writeMap(path string) error {
	_, err := writeOutput(path, io.Discard, false, func(w io.Writer) error {
		var b []byte
		for _, e := range r.order {
			b = append(append(append(append(b, e[0]...), '\t'), escapeField(e[1])...), '\n')
		}
		_, err := w.Write(b)
		return err
	})
	if err != nil {
		return fmt.Errorf("--redact-map: %v", err)
	}
	return nil
}

// objectList is a repeatable flag of object names (--redact-instances).
type objectList []string

func (l *objectList) String() string { return strings.Join(*l, ",") }
func (l *objectList) Set(v string) error {
	if v == "" {
		return errors.New("an object name, such as Process")
	}
	*l = append(*l, v)
	return nil
}

// redactFlags are relog's --redact, --redact-map, --redact-instances and
// --salt.
type redactFlags struct {
	on      *bool
	mapFile *string
	objects objectList
	salt    *string
}

func addRedactFlags(fs *flag.FlagSet) *redactFlags {
	f := &redactFlags{}
	f.on = fs.Bool("redact", false, "replace the machine names by MACHINE-1, MACHINE-2, ... (values untouched)")
	f.mapFile = fs.String("redact-map", "", "the file of the machines' pseudonyms: read when it exists (a machine keeps its pseudonym), then written (implies --redact)")
	fs.Var(&f.objects, "redact-instances", "hash the instance names of this object (Process, LogicalDisk, ...) with --salt; repeatable (implies --redact)")
	f.salt = fs.String("salt", "", "the secret that --redact-instances hashes the names with")
	return f
}

// checkFiles refuses a --redact-map that is not a regular file where it
// exists (a named pipe, a device) or is another file of the command:
// standard input or output ("-": the map is read, then written), one of
// its inputs (the map written would replace it), -o's file or
// --keep-partial's (one would replace the other: the map of the real
// machine names was left in the file of the redacted output).
func (f *redactFlags) checkFiles(out string, keepPartial bool, stdin io.Reader, stdout io.Writer, inputs []namedInput) error {
	m := *f.mapFile
	if m == "" {
		return nil
	}
	if m == stdinName {
		return &usageError{"--redact-map -: the map is read, then written: name a file"}
	}
	if fi, err := os.Stat(m); err == nil && !fi.Mode().IsRegular() {
		// A named pipe would block the reading, a device take the map.
		return &usageError{"--redact-map " + m + ": not a regular file (the map is read, then replaced): name a file"}
	}
	if err := checkPathNotInput("--redact-map "+m, m, stdin, inputs); err != nil {
		return err
	}
	outs := []namedOutput{{out, "-o"}}
	if keepPartial && out != "" && out != stdinName {
		outs = append(outs, namedOutput{partialPath(out), "--keep-partial's"})
	}
	return checkOutputsApart(stdout, append(outs, namedOutput{m, "--redact-map"})...)
}

// redactor returns the redactor the flags ask for, or nil.
func (f *redactFlags) redactor() (*redactor, error) {
	if !*f.on && *f.mapFile == "" && len(f.objects) == 0 {
		if *f.salt != "" {
			return nil, &usageError{"--salt goes with --redact-instances"}
		}
		return nil, nil
	}
	if len(f.objects) > 0 && *f.salt == "" {
		return nil, &usageError{"--redact-instances needs --salt SECRET (the same secret gives the same names)"}
	}
	return newRedactor(*f.mapFile, f.objects, *f.salt)
}

// renameColumns redacts a Converter's columns (relog.Converter.Columns
// allows renaming them before the rows are read). A path whose machine
// alone is renamed keeps the rest of its text as the log names it (an
// instance named h#0 stays h#0, which Path.AppendTo would write h#0#0).
func (r *redactor) renameColumns(cols []relog.Column) {
	for i := range cols {
		old := cols[i].Parts
		p := r.path(old)
		cols[i].Parts = p
		if prefix := `\\` + old.Machine + `\`; old.Machine != "" && p.Instance == old.Instance && p.Parent == old.Parent && strings.HasPrefix(cols[i].Path, prefix) {
			cols[i].Path = `\\` + p.Machine + cols[i].Path[len(prefix)-1:]
			continue
		}
		cols[i].Path = string(p.AppendTo(nil))
	}
}
