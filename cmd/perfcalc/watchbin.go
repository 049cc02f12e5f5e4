package main

import (
	"errors"
	"io"
	"time"

	"github.com/perfcalc/perfcalc/collect"
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/relog"
)

// watchBufferSize is the buffer size of the logs that watch -f bin
// writes: each sample is flushed in a buffer of its own (or several), so
// that a log cut short reads up to its last sample; 16 KiB keeps an hour
// of one-second samples under 60 MB where perfmon's 64 KiB would take
// 230 MB.
const watchBufferSize = 16 << 10

// binWatch is what watch -f bin needs besides watchWriter's columns: the
// log being written, its output, and per column the instance name of its
// wildcard entry (nil for a counter without an instance) and its time
// base.
type binWatch struct {
	out      io.Writer
	name     string // -o, for the log header's LogFileName
	w        *blg.Writer
	names    [][]byte
	counters []engine.Counter
	vals     []blg.Value
	tb       []int64 // per column: this row's time base
}

// binRow writes one sample to the log, the log's header and counter list
// first: one counter-list entry per column, as relog -f bin writes merged
// logs (a column of an instance is a wildcard entry listing that instance,
// where the sample has it), then the sample's raw values, flushed.
func (tw *watchWriter) binRow(s *collect.Sample) error {
	b := tw.bin
	if len(s.TimeBases) != len(s.Values) {
		return errors.New("-f bin: this source does not give the counters' time bases (use --source registry or pdh)")
	}
	clear(tw.cells)
	cellTB := tw.binTB(len(tw.cells))
	for i := range s.Values {
		if c, ok := tw.index[string(s.Values[i].Path)]; ok {
			tw.cells[c] = &s.Values[i]
			cellTB[c] = s.TimeBases[i]
		}
	}
	_, off := s.Time.Zone()
	local := filetimeOf(s.Time) + int64(off)*10_000_000
	if b.w == nil {
		name, _ := s.Time.Zone()
		cfg := blg.WriterConfig{Header: blg.LogHeader{
			BufferSize: watchBufferSize, PointerSize: 8,
			StartTime:   filetimeOf(s.Time),
			TimeZone:    blg.TimeZone{Bias: int32(-off / 60), StandardName: name},
			LoggerName:  "perfcalc watch",
			LogFileName: b.name,
		}, ListTime: local}
		b.names = make([][]byte, len(tw.columns))
		b.counters = make([]engine.Counter, len(tw.columns))
		for c, v := range tw.cells {
			if v == nil {
				return errors.New("-f bin: " + tw.columns[c] + " is missing from the first sample")
			}
			b.counters[c] = engine.Counter{Type: v.Type, Scale: v.Scale, TimeBase: cellTB[c]}
			ci, name := relog.ColumnEntry(&v.Parts, b.counters[c])
			b.names[c] = name
			cfg.Counters = append(cfg.Counters, ci)
		}
		w, err := blg.NewWriter(b.out, cfg)
		if err != nil {
			return err
		}
		b.w = w
	}
	b.vals = b.vals[:0]
	for c, v := range tw.cells {
		if v == nil {
			continue // absent from this sample
		}
		if (engine.Counter{Type: v.Type, Scale: v.Scale, TimeBase: cellTB[c]}) != b.counters[c] {
			return errors.New("-f bin: " + tw.columns[c] + " changed its type or time base, which one counter-list entry cannot hold")
		}
		b.vals = append(b.vals, blg.Value{Counter: c, Instance: b.names[c], Raw: v.Raw})
	}
	if err := b.w.WriteSample(local, b.vals); err != nil {
		return err
	}
	return b.w.Flush()
}

// binTB returns a zeroed slice of n time bases, reused from row to row.
func (tw *watchWriter) binTB(n int) []int64 {
	b := tw.bin
	if cap(b.tb) < n {
		b.tb = make([]int64, n)
	}
	b.tb = b.tb[:n]
	clear(b.tb)
	return b.tb
}

// closeBin ends the log (the header's end time and buffer count set when
// -o is a file).
func (tw *watchWriter) closeBin() error {
	if tw.bin == nil || tw.bin.w == nil {
		return nil
	}
	return tw.bin.w.Close(filetimeOf(time.Now()))
}
