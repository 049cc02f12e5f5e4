package main

import (
	"io"

	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/relog"
)

// writeBin writes relog's selection of the logs as a .blg log (-f bin):
// relog.WriteBin of the opened logs, renamed by red (--redact) where it is
// not nil. It returns the damage of an input (the samples before it are
// written) apart from other errors.
func writeBin(w io.Writer, logs *openedLogs, opts relog.Options, red *redactor) (damage, err error) {
	var ren relog.Renamer
	if red != nil {
		ren = binRenamer{red}
	}
	return relog.WriteBin(w, relog.Bin{Inputs: logs.inputs, C: logs.c, Open: logs.open}, opts, ren)
}

// binRenamer is a redactor as relog.WriteBin's Renamer.
type binRenamer struct{ r *redactor }

// Header is redactor.header.
func (b binRenamer) Header(h *blg.LogHeader) { b.r.header(h) }

// Counter is redactor.counter.
func (b binRenamer) Counter(c *blg.CounterInfo) { b.r.counter(c) }

// Path is redactor.path.
func (b binRenamer) Path(p counterpath.Path) counterpath.Path { return b.r.path(p) }

// Instances reports whether --redact-instances names an object.
func (b binRenamer) Instances() bool { return len(b.r.objects) > 0 }

// Instance is redactor.fullInstance.
func (b binRenamer) Instance(object, full string) string { return b.r.fullInstance(object, full) }
