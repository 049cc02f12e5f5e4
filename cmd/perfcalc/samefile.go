package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/perfcalc/perfcalc/collect"
)

// namedInput is one file a command reads: its name as given ("-" for
// standard input) and the flag or argument that names it ("IN.blg", "-cf",
// …).
type namedInput struct{ name, what string }

// checkNotInput refuses an output -o out that is one of the command's
// inputs (or standard input, when an input is "-" and standard input is a
// file): writing it would replace the input. Files are compared by
// identity (os.SameFile: device and inode, so that a hard link, a symbolic
// link or another spelling of the same path is caught), not by name. An
// output that does not exist yet, standard output ("" or "-") and a
// character device (/dev/null, a terminal), which writing does not
// replace, are never refused.
func checkNotInput(out string, stdin io.Reader, inputs ...namedInput) error {
	if out == "" || out == stdinName {
		return nil
	}
	return checkPathNotInput("-o "+out, out, stdin, inputs)
}

// checkLogOutputs is checkNotInput for relog and stats, whose
// --keep-partial may also write out.partial: that file must not be an
// input either.
func checkLogOutputs(out string, keepPartial bool, stdin io.Reader, inputs ...namedInput) error {
	err := checkNotInput(out, stdin, inputs...)
	if err == nil && keepPartial && out != "" && out != stdinName {
		partial := partialPath(out)
		err = checkPathNotInput("--keep-partial's "+partial, partial, stdin, inputs)
	}
	return err
}

// partialPath is the file where --keep-partial keeps a failed output -o
// out: writeOutput's, beside a link's target.
func partialPath(out string) string {
	target := out
	if resolved, err := filepath.EvalSymlinks(out); err == nil {
		target = resolved
	}
	return target + partialSuffix
}

// checkPathNotInput refuses the output path, which label names, when it is
// one of inputs (see checkNotInput).
func checkPathNotInput(label, out string, stdin io.Reader, inputs []namedInput) error {
	fo, err := os.Stat(out)
	if err != nil || fo.IsDir() || fo.Mode()&os.ModeCharDevice != 0 {
		return nil // writeOutput reports what is wrong with out
	}
	for _, in := range inputs {
		var fi os.FileInfo
		what := "the input " + in.name
		switch {
		case in.name == "":
			continue
		case in.name == stdinName:
			f, ok := stdin.(*os.File)
			if !ok {
				continue
			}
			if fi, err = f.Stat(); err != nil {
				continue
			}
			what = "standard input"
		default:
			if fi, err = os.Stat(in.name); err != nil {
				continue // the command reports it when it reads the input
			}
		}
		if os.SameFile(fo, fi) {
			return sameFileError(label, what, in.what, "write the output to another file")
		}
	}
	return nil
}

// sameFileError is the error for an output that is its input: output (as
// "-o x.blg") is the same file as input (as "the input x.blg"; what names
// the input's argument or flag: "IN.blg"),
// and advice says what to do instead.
func sameFileError(output, input, what, advice string) error {
	msg := output + " is the same file as " + input
	if what != "" {
		msg += " (" + what + ")"
	}
	return &usageError{msg + ": writing it would replace the input; " + advice}
}

// refuseOutputsThatAreInputs fails every job of a convert run whose output
// exists and is the same file (os.SameFile) as one of the run's inputs: a
// log converted into its own folder under its output's name, or an output
// that is a link to a log, or one of others, the files the run reads
// besides its logs (--names-file). Such a job would be skipped as up to
// date, or with --force replace the input.
func refuseOutputsThatAreInputs(jobs []*job, others ...namedInput) {
	type other struct {
		namedInput
		fi os.FileInfo
	}
	var files []other // the others that are regular files
	for _, o := range others {
		if o.name == stdinName {
			continue
		}
		if fi, err := os.Stat(o.name); err == nil && fi.Mode().IsRegular() {
			files = append(files, other{o, fi})
		}
	}
	bySize := map[int64][]*job{} // the inputs, by size: few candidates per output
	infos := map[*job]os.FileInfo{}
	for _, j := range jobs {
		if j.err != nil {
			continue
		}
		if fi, err := os.Stat(j.in); err == nil {
			bySize[fi.Size()] = append(bySize[fi.Size()], j)
			infos[j] = fi
		}
	}
	for _, j := range jobs {
		if j.err != nil {
			continue
		}
		fo, err := os.Stat(j.out)
		if err != nil {
			continue
		}
		for _, in := range bySize[fo.Size()] {
			if os.SameFile(fo, infos[in]) {
				j.err = sameFileError("its output "+j.out, "the input "+in.in, "", "convert it into another folder")
				break
			}
		}
		for _, o := range files {
			if j.err == nil && os.SameFile(fo, o.fi) {
				j.err = sameFileError("its output "+j.out, "the input "+o.name, o.what, "convert it into another folder")
			}
		}
	}
}

// namedOutput is one file a command writes: its name as given ("" or "-"
// for standard output) and the flag that names it ("-o", "--redact-map",
// …).
type namedOutput struct{ name, what string }

// checkOutputsApart refuses two outputs of one command that are one file:
// the second written would replace the first (relog -o o.csv
// --redact-map o.csv left the map of the real machine names in o.csv).
// Outputs are compared by identity where both exist (os.SameFile, as
// checkNotInput), and by their absolute paths, links resolved, where one
// is not written yet. Standard output is the file stdout is, when it is
// one; character devices (a terminal, /dev/null) are never refused.
func checkOutputsApart(stdout io.Writer, outs ...namedOutput) error {
	type id struct {
		fi   os.FileInfo
		path string
	}
	ids := make([]id, len(outs))
	for i, o := range outs {
		if o.name == "" || o.name == stdinName {
			if f, ok := stdout.(*os.File); ok {
				ids[i].fi, _ = f.Stat()
			}
		} else {
			ids[i].fi, _ = os.Stat(o.name)
			ids[i].path = resolvedPath(o.name)
		}
		if fi := ids[i].fi; fi != nil && (fi.IsDir() || fi.Mode()&os.ModeCharDevice != 0) {
			ids[i] = id{}
		}
	}
	for j := range outs {
		for i := range j {
			a, b := ids[i], ids[j]
			if a.fi != nil && b.fi != nil && os.SameFile(a.fi, b.fi) || a.path != "" && a.path == b.path {
				first := outs[i].what + " " + outs[i].name
				if outs[i].name == "" || outs[i].name == stdinName {
					first = "standard output (" + outs[i].what + ")"
				}
				return &usageError{outs[j].what + " " + outs[j].name + " is the same file as " + first + ": one output would replace the other; write them to two files"}
			}
		}
	}
	return nil
}

// resolvedPath returns the absolute path of the file name, its links
// resolved (those of its folder where the file does not exist yet), or ""
// where the folder cannot be resolved either.
func resolvedPath(name string) string {
	if p, err := filepath.EvalSymlinks(name); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
		return ""
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(name))
	if err != nil {
		return ""
	}
	abs, err := filepath.Abs(filepath.Join(dir, filepath.Base(name)))
	if err != nil {
		return ""
	}
	return abs
}

// checkNotSaved refuses a file of watch (-o, -cf, --names-file) that its
// --save folder's captures may replace: a file of that folder named as the
// collector names what it saves (collect.Config.SaveDir:
// counter-009.multisz, counter-local.multisz, v1-….bin, v2-….bin,
// .reginfo and .strings, pdh-….jsonl and .paths). The folders are
// compared with their links resolved.
func checkNotSaved(save string, files ...namedOutput) error {
	if save == "" {
		return nil
	}
	dir := resolvedPath(save)
	if dir == "" {
		return nil // collect reports a folder it cannot make
	}
	for _, f := range files {
		if f.name == "" || f.name == stdinName {
			continue
		}
		p := resolvedPath(f.name)
		if p == "" || filepath.Dir(p) != dir {
			continue
		}
		base := filepath.Base(p)
		ext := filepath.Ext(base)
		switch {
		case base == collect.EnglishTableFile, base == collect.LocalTableFile,
			strings.HasPrefix(base, "v1-") && ext == ".bin",
			strings.HasPrefix(base, "v2-") && (ext == ".bin" || ext == ".reginfo" || ext == ".strings"),
			strings.HasPrefix(base, "pdh-") && (ext == ".jsonl" || ext == ".paths"):
			return &usageError{f.what + " " + f.name + " is in --save " + save + " under a name its captures take (" + base + "): a capture would replace it; name it otherwise or save elsewhere"}
		}
	}
	return nil
}
