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
	return relog.WriteBin(logOutput(w), relog.BinSource{Inputs: logs.inputs, C: logs.c, Open: logs.open}, opts, ren)
}

// logOutput returns the output w as blg.Writer writes a log on it: a file
// keeps its io.WriterAt, through which Writer.Close sets the header's
// EndTime and BuffersWritten at the end, at the offset where the log
// starts (standard output may hold other bytes before it); an output that
// cannot seek (a pipe, a terminal, a socket, which an *os.File can be:
// its WriteAt fails with "illegal seek" after the whole log was written)
// or that appends loses it, and the log ends as a real-time log does,
// those fields 0. (The
// probe is here, not in engine/blg: a Seek called through an interface
// there would link every Seek method into the WebAssembly module, 2.8 KB.)
func logOutput(w io.Writer) io.Writer {
	at, ok := w.(io.WriterAt)
	if !ok {
		return w
	}
	s, ok := w.(io.Seeker)
	if !ok {
		return w
	}
	base, err := s.Seek(0, io.SeekCurrent)
	if err != nil || appends(at) {
		return struct{ io.Writer }{w}
	}
	if base != 0 {
		return offsetOutput{w, at, base}
	}
	return w
}

// appends reports whether at refuses WriteAt, as an *os.File opened to
// append (perfcalc ... >> f) does: a WriteAt of nothing tells, and
// writes nothing.
func appends(at io.WriterAt) bool {
	_, err := at.WriteAt(nil, 0)
	return err != nil
}

// offsetOutput is an output whose log starts at base: WriteAt's offsets
// are the log's.
type offsetOutput struct {
	io.Writer
	at   io.WriterAt
	base int64
}

// WriteAt writes p at the log's offset off.
func (o offsetOutput) WriteAt(p []byte, off int64) (int, error) { return o.at.WriteAt(p, o.base+off) }

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
