package main

import (
	"io"
	"os"
	"path/filepath"
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
		target := out // writeOutput's: a link's target, beside which it writes the .partial
		if resolved, err := filepath.EvalSymlinks(out); err == nil {
			target = resolved
		}
		err = checkPathNotInput("--keep-partial's "+target+partialSuffix, target+partialSuffix, stdin, inputs)
	}
	return err
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
// that is a link to a log. Such a job would be skipped as up to date, or
// with --force replace the log.
func refuseOutputsThatAreInputs(jobs []*job) {
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
	}
}
