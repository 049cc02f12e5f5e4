// Command perfcalc computes Windows performance counter values from raw
// samples, exactly as Windows' PDH does, on any operating system.
//
// Usage:
//
//	perfcalc calc --type TYPE [--old N,D[,M]] --new N,D[,M] [--timebase F] [--options LIST] [--digits 17|20] [--json]
//	perfcalc calc --batch < requests.jsonl > results.jsonl
//	perfcalc values OLDER NEWER [-c PATH ...] [-cf FILE] [--names TABLE] [-f table|csv|tsv|json|parquet|openmetrics] [-o OUT] [--options LIST] [--digits 20|17] [--identity pdh|pid]
//	perfcalc values OLDER NEWER --reginfo FILE [--strings FILE] [--counterset NAME] [--ids LIST] ...
//	perfcalc show BLOB [--names TABLE] [--json]
//	perfcalc show BLOB --reginfo FILE [--strings FILE] [--json]
//	perfcalc paths BLOB [-c PATTERN ...] [-cf FILE] [--names TABLE]
//	perfcalc paths BLOB --reginfo FILE [--strings FILE] [--counterset NAME] [--ids LIST] [-c PATTERN ...] [-cf FILE]
//	perfcalc relog IN.blg [IN.blg ...] [-c PATH ...] [-cf FILE] [-f csv|tsv|json|parquet|openmetrics|bin] [-o OUT] [-b START] [-e END] [-t N] [--digits 20|17] [--max-columns N] [--redact] [--redact-map FILE] [--redact-instances OBJECT --salt SECRET] [--identity pdh|pid]
//	perfcalc relog IN.blg [IN.blg ...] -q [-c PATH ...] [-cf FILE] [-b START] [-e END] [-t N] [-o OUT]
//	perfcalc stats IN.blg [IN.blg ...] [-c PATH ...] [-cf FILE] [-b TIME] [-e TIME] [--valid] [--percentiles] [--json] [-o OUT] [--max-columns N] [--identity pdh|pid]
//	perfcalc analyze LOG... [--thresholds FILE.xml]... [--set NAME=VALUE]... [--interval auto|SECONDS] [--pal-compat] [-f html|json|text] [-o OUT] [--fail-on warning|critical] [--identity pdh|pid]
//	perfcalc convert INPUT... -o DIR [-f parquet|csv|tsv|json|openmetrics] [-j N] [--force] [--digits 20|17] [--max-columns N] [--identity pdh|pid]
//	perfcalc convert INPUT... -o DIR --partition machine,date [-j N] [--force] [--digits 20|17] [--max-columns N] [--identity pdh|pid]
//	perfcalc watch [PATH ...] [-c PATH ...] [-cf FILE] [-si INTERVAL] [-sc N] [-f csv|tsv|json|bin] [-o FILE] [--source registry|v2|pdh] [--log] [--digits 20|17] [--options LIST] [--save DIR] [--identity pdh|pid]
//	perfcalc watch -q [OBJECT] | -qx [OBJECT]  [--source registry|v2|pdh]
//	perfcalc names --compact CounterLang.xml [--lang LIST] [-o OUT]
//	perfcalc names --compact TABLE|LOG.blg --compact TABLE... [-o OUT]
//	perfcalc names --save DIR
//	perfcalc version [--json]
//
// Run "perfcalc help" or "perfcalc COMMAND -h" (perfcalc help COMMAND) for details.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// Exit statuses.
const (
	exitOK    = 0 // success
	exitError = 1 // the work failed (unreadable input, a bad batch line, …)
	exitUsage = 2 // bad command line: unknown command, bad flag or number
)

// command is one subcommand of perfcalc.
type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands lists the subcommands in the order help shows them; each
// command's file adds itself with register.
var commands []command

// register adds a subcommand; call it from the init function of the file
// that implements the command.
func register(c command) { commands = append(commands, c) }

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is perfcalc's entry point, separated from main for tests.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "help":
		return runHelp(args[1:], stdin, stdout, stderr)
	case "-h", "-help", "--help":
		usage(stdout)
		return exitOK
	case "-version", "--version":
		return runVersion(args[1:], stdin, stdout, stderr)
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], stdin, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "perfcalc: unknown command %q (see perfcalc help)\n", args[0])
	return exitUsage
}

// runHelp is "perfcalc help [COMMAND]": the command list, or COMMAND's
// usage exactly as "perfcalc COMMAND -h" prints it (standard output, exit
// status 0); "help help" and "help -h" are the list. An unknown command, or
// more than one, is a usage error.
func runHelp(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0, len(args) == 1 && (args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help"):
		usage(stdout)
		return exitOK
	case len(args) > 1:
		fmt.Fprintln(stderr, "perfcalc help: one command at most (see perfcalc help)")
		return exitUsage
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run([]string{"-h"}, stdin, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "perfcalc help: unknown command %q (see perfcalc help)\n", args[0])
	return exitUsage
}

// usage writes the command list.
func usage(w io.Writer) {
	fmt.Fprintln(w, "perfcalc computes Windows performance counter values exactly as PDH does.")
	fmt.Fprintln(w, "\nUsage: perfcalc COMMAND [flags]\n\nCommands:")
	sorted := append([]command(nil), commands...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].name < sorted[j].name })
	for _, c := range sorted {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun perfcalc COMMAND -h (or perfcalc help COMMAND) for the flags of a command.")
}
