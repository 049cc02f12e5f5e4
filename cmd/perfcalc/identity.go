package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/termtext"
)

// identityFlag is --identity: how instances are paired across samples,
// pdh (by name, as PDH and relog pair them) or pid (Process and Thread
// instances by process and thread ID).
type identityFlag identity.Mode

// identityUsage is --identity's line in the flag lists.
const identityUsage = "pair instances across samples by name as PDH does (pdh), or Process and Thread instances by process and thread ID (pid: a series per process, named name:pid)"

// identityHelp is the paragraph of the help texts on --identity.
const identityHelp = `--identity pid pairs Process instances by their ID Process counter (and
Creating Process ID, to tell a reused PID), Thread instances by ID Process
and ID Thread, instead of by name: PDH names processes that share a name
chrome, chrome#1, … in their order, so that when one exits the next are
renumbered and PDH computes a rate between two processes. In pid mode each
process is its own series, \Process(chrome:4242)\% Processor Time
(\Thread(chrome:4242/5120)\… for a thread), and its first sample has no
value; the number of identity breaks (names that changed process) is
noted on standard error. Instances that share their IDs in a sample (the
Idle process's threads, all 0/0) are numbered in their order as PDH
numbers duplicates, \Thread(Idle:0/0#1)\…, with a note. An object without
those counters is paired by name, and a note says so. The default, pdh,
is relog's pairing.
`

// addIdentityFlag registers --identity on fs.
func addIdentityFlag(fs *flag.FlagSet) *identity.Mode {
	id := new(identityFlag)
	fs.Var(id, "identity", identityUsage)
	return (*identity.Mode)(id)
}

func (f *identityFlag) String() string { return identity.Mode(*f).String() }

func (f *identityFlag) Set(v string) error {
	id, ok := identity.Parse(v)
	if !ok {
		return fmt.Errorf("want pdh or pid, not %q", v)
	}
	*f = identityFlag(id)
	return nil
}

// noteIdentity writes, in pid mode, the notes of the objects paired by
// name and the number of identity breaks to stderr, each after "log: "
// when log is not "".
func noteIdentity(stderr io.Writer, cmd, log string, id identity.Mode, notes []string, breaks int64) {
	if id != identity.PID {
		return
	}
	if log != "" {
		log += ": "
	}
	for _, n := range notes { // names of the log's: escaped (termtext)
		fmt.Fprintf(stderr, "perfcalc %s: note: %s%s\n", cmd, termtext.Visible(log), termtext.Visible(n))
	}
	fmt.Fprintf(stderr, "perfcalc %s: note: %s%s\n", cmd, termtext.Visible(log), breaksNote(breaks))
}

// breaksNote words a number of identity breaks.
func breaksNote(n int64) string {
	switch n {
	case 0:
		return "identity: no identity break (no instance name changed process)"
	case 1:
		return "identity: 1 identity break (an instance name that changed process; by name, PDH computes a value between the two)"
	}
	return fmt.Sprintf("identity: %d identity breaks (instance names that changed process; by name, PDH computes a value between the two)", n)
}
