package main

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine/relog"
)

// outputFormat is an output format of perfcalc's commands (-f), parsed
// once from its name (parseFormat) and passed on typed.
type outputFormat uint8

// The output formats, in the order of the formats table.
const (
	formatTable       outputFormat = iota // values' aligned columns
	formatCSV                             // relog's PDH-CSV (engine/logtext)
	formatTSV                             // relog's PDH-TSV (engine/logtext)
	formatJSON                            // JSON Lines, one object per row or value
	formatParquet                         // the long table (internal/parquetlog)
	formatOpenMetrics                     // OpenMetrics text (internal/openmetrics)
	formatBin                             // a perfmon binary log (engine/blg's Writer)
)

// commandSet says which commands write a format.
type commandSet uint8

// The commands that take -f.
const (
	forRelog commandSet = 1 << iota
	forValues
	forConvert
	forWatch
)

// formatCommands names the commands of a commandSet's bits, in bit order.
var formatCommands = [...]string{"relog", "values", "convert", "watch"}

// formats is the table of output formats: each one's -f name, the
// extensions of its files (the first names convert's outputs; -o FILE's
// extension picks the format when -f is absent), how relog's Converter
// writes it (the long formats go through internal/longform instead), and
// the commands that write it. The commands, their help texts and their
// messages read their lists from it.
var formats = [...]struct {
	name  string
	exts  []string
	relog relog.Format // csv, tsv and json: the format of relog.Converter.Write; bin: relog.WriteBin's
	long  bool         // parquet and openmetrics: written from a longform.Table (writeTable)
	cmds  commandSet
}{
	formatTable:       {name: "table", exts: []string{".txt"}, cmds: forValues},
	formatCSV:         {name: "csv", exts: []string{".csv"}, relog: relog.CSV, cmds: forRelog | forValues | forConvert | forWatch},
	formatTSV:         {name: "tsv", exts: []string{".tsv"}, relog: relog.TSV, cmds: forRelog | forValues | forConvert | forWatch},
	formatJSON:        {name: "json", exts: []string{".jsonl", ".json"}, relog: relog.JSON, cmds: forRelog | forValues | forConvert | forWatch},
	formatParquet:     {name: "parquet", exts: []string{".parquet"}, long: true, cmds: forRelog | forValues | forConvert},
	formatOpenMetrics: {name: "openmetrics", exts: []string{".om"}, long: true, cmds: forRelog | forValues | forConvert},
	formatBin:         {name: "bin", exts: []string{".blg"}, relog: relog.Bin, cmds: forRelog | forWatch},
}

// String returns the format's -f name.
func (f outputFormat) String() string { return formats[f].name }

// ext returns the extension of the format's files: SERVER1.blg converts to
// SERVER1<ext>.
func (f outputFormat) ext() string { return formats[f].exts[0] }

// long reports whether the format is written from the long table.
func (f outputFormat) long() bool { return formats[f].long }

// commandFormats returns the formats of the commands cmds: the default
// first, then in the table's order.
func commandFormats(cmds commandSet, def outputFormat) []outputFormat {
	list := []outputFormat{def}
	for f := range formats {
		if f := outputFormat(f); f != def && formats[f].cmds&cmds != 0 {
			list = append(list, f)
		}
	}
	return list
}

// choices joins a list as choices: "csv, tsv or json" (sep ", "), or
// "csv|tsv|json" (sep "|").
func choices(list []string, sep string) string {
	if sep != ", " || len(list) == 1 {
		return strings.Join(list, sep)
	}
	return strings.Join(list[:len(list)-1], ", ") + " or " + list[len(list)-1]
}

// formatNames lists the names of the formats of the commands cmds, the
// default first, as choices joined by sep.
func formatNames(cmds commandSet, def outputFormat, sep string) string {
	var names []string
	for _, f := range commandFormats(cmds, def) {
		names = append(names, f.String())
	}
	return choices(names, sep)
}

// extensionHelp is the paragraph of a command's help on -o FILE's
// extension, ending with an empty line.
func extensionHelp(cmds commandSet, def outputFormat) string {
	var exts []string
	for _, f := range commandFormats(cmds, def) {
		exts = append(exts, formats[f].exts...)
	}
	return "Without -f, the extension of -o FILE picks the format, one of\n  " + strings.Join(exts, " ") +
		"\n(another is refused); standard output, /dev/null, a pipe, .txt and a\nname without an extension get the default, " + def.String() + ".\n\n"
}

// formatFlag is a command's -f flag, read once by format.
type formatFlag struct {
	fs   *flag.FlagSet
	name *string
	cmds commandSet
	def  outputFormat
}

// addFormatFlag registers -f for the command cmd (one bit of commandSet)
// whose default is def; the flag's help lists the formats of cmd.
func addFormatFlag(fs *flag.FlagSet, cmd commandSet, def outputFormat) *formatFlag {
	name := fs.String("f", def.String(), "output format: "+formatNames(cmd, def, ", "))
	return &formatFlag{fs: fs, name: name, cmds: cmd, def: def}
}

// format returns the format -f names, once the flags are parsed. Without
// -f, an -o file's extension picks it (.csv, .tsv, .jsonl or .json,
// .parquet, .om), and the default stays for an output that is not a
// regular file ("-", /dev/null, /dev/stdout, a named pipe), a file name
// without an extension and a .txt file; an extension that names no format
// of the command is a usage error. out is "" where -o is not a file.
func (f *formatFlag) format(out string) (outputFormat, error) {
	set := false
	f.fs.Visit(func(fl *flag.Flag) { set = set || fl.Name == "f" })
	if set {
		for i := range formats {
			if formats[i].name == *f.name && formats[i].cmds&f.cmds != 0 {
				return outputFormat(i), nil
			}
		}
		return 0, f.unknown()
	}
	ext := strings.ToLower(filepath.Ext(out))
	if out == "" || out == stdinName || ext == "" || !regularOrAbsent(out) {
		return f.def, nil
	}
	for i := range formats {
		for _, e := range formats[i].exts {
			if e == ext && formats[i].cmds&f.cmds != 0 {
				return outputFormat(i), nil
			}
		}
	}
	if ext == ".txt" {
		return f.def, nil // text: the command's default
	}
	var exts []string
	for _, g := range commandFormats(f.cmds, f.def) {
		exts = append(exts, formats[g].exts...)
	}
	return 0, &usageError{"-o " + out + ": the extension " + ext + " names no format that " + f.command() + " writes (" + choices(exts, ", ") + "); give -f"}
}

// unknown is the error of an -f that names no format of the command.
func (f *formatFlag) unknown() error {
	if f.cmds == forValues {
		return &usageError{"-f: unknown format " + strconv.Quote(*f.name) + " (want " + formatNames(f.cmds, f.def, ", ") + ")"}
	}
	return &usageError{"-f: " + strconv.Quote(*f.name) + " is not " + formatNames(f.cmds, f.def, ", ")}
}

// command names the (first) command of f.
func (f *formatFlag) command() string {
	for i, name := range formatCommands {
		if f.cmds&(1<<i) != 0 {
			return "perfcalc " + name
		}
	}
	return "perfcalc"
}

// regularOrAbsent reports whether path is a regular file or does not
// exist yet (so that it will be one).
func regularOrAbsent(path string) bool {
	fi, err := os.Stat(path)
	return err != nil || fi.Mode().IsRegular()
}
