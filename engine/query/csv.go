package query

import (
	"io"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/internal/filetime"
	"github.com/perfcalc/perfcalc/engine/logtext"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
)

// Stamp is the time of a capture as relog's CSV of its values prints it:
// the capture's SYSTEMTIME (the machine's local time) and the zone's bias
// found between it and the capture's UTC time stamp.
type Stamp struct {
	// Local is the capture's SystemTime as a FILETIME read on the wall
	// clock (no zone applied); 0 unless OK.
	Local int64
	// UTC is the capture's PerfTime100nSec (V1) or PerfTime100NSec (V2):
	// a FILETIME in UTC.
	UTC int64
	// Bias is UTC − Local in minutes, rounded to the quarter hour (every
	// zone's offset is a multiple of 15 minutes); 0 unless HasBias.
	Bias int32
	// HasBias says that UTC lies within 14 hours of Local, so that Bias
	// is the zone's.
	HasBias bool
	// OK says that SystemTime is a valid time.
	OK bool
}

// CaptureStamp returns the Stamp of a V1 PERF_DATA_BLOCK or a PerfLib V2
// PerfQueryCounterData result; the zero Stamp when the header does not
// parse.
func CaptureStamp(capture []byte) Stamp {
	if perfdata.IsV1(capture) {
		b, err := perfdata.Parse(capture)
		if err != nil {
			return Stamp{}
		}
		t := &b.SystemTime
		return newStamp(t.Year, t.Month, t.Day, t.Hour, t.Minute, t.Second, t.Milliseconds, b.PerfTime100nSec)
	}
	var p perflibv2.Parser
	h, err := p.Start(capture)
	if err != nil {
		return Stamp{}
	}
	t := &h.SystemTime
	return newStamp(t.Year, t.Month, t.Day, t.Hour, t.Minute, t.Second, t.Milliseconds, h.PerfTime100NSec)
}

// newStamp combines a SYSTEMTIME's fields with the UTC FILETIME utc of the
// same moment. A day past the month's end counts on into the next month,
// as time.Date normalises it.
func newStamp(year, month, day, hour, min, sec, ms uint16, utc int64) Stamp {
	s := Stamp{UTC: utc}
	if year < 1601 || year > 30827 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || min > 59 || sec > 59 || ms > 999 {
		return s
	}
	s.Local = filetime.Join(int64(year), int64(month), int64(day), int64(hour), int64(min), int64(sec)) + int64(ms)*10_000
	s.OK = true
	if utc > 0 {
		// Round (UTC − Local) to the nearest quarter hour, halves away
		// from zero (math.Round's rule).
		const quarter = 15 * filetime.TicksPerMinute
		d := utc - s.Local
		q := (d + quarter/2) / quarter
		if d < 0 {
			q = -((-d + quarter/2) / quarter)
		}
		if q >= -14*4 && q <= 14*4 {
			s.Bias, s.HasBias = int32(q*15), true
		}
	}
	return s
}

// Zone returns the zone of the capture's CSV header: named after its
// offset, "UTC-08:00" (captures carry no zone name), when the capture has
// a Bias; not Known otherwise.
func (s Stamp) Zone() logtext.Zone {
	if !s.HasBias {
		return logtext.Zone{}
	}
	return logtext.OffsetZone(s.Bias)
}

// AppendHeader appends relog's first header cell, without quotes:
// "(PDH-CSV 4.0) (UTC-08:00)(480)" ("(PDH-TSV 4.0) …" when tsv). Captures
// carry no zone name: the offset is written as the name. Without a Bias
// the cell is "(PDH-CSV 4.0)" alone.
func (s Stamp) AppendHeader(dst []byte, tsv bool) []byte {
	return logtext.AppendTitle(dst, dialect(tsv), s.Zone())
}

func dialect(tsv bool) logtext.Dialect {
	if tsv {
		return logtext.TSV
	}
	return logtext.CSV
}

// WriteCSV writes vals as relog's CSV of one sample, what perfcalc values
// -f csv writes: the header row ("(PDH-CSV 4.0) (UTC…)(bias)" and the
// paths), then one row with the capture's local time (s, as
// logtext.AppendTime prints it; empty unless s.OK) and the values
// with digits significant digits (engine.AppendFloat; " " where the status
// is not Valid), every field quoted, lines ending in CR LF. tsv writes
// relog's TSV instead ("(PDH-TSV 4.0)", tabs). It returns w's first error.
func WriteCSV(w io.Writer, vals []Value, s Stamp, tsv bool, digits int) error {
	d := dialect(tsv)
	t := csvWriter{w: w, b: make([]byte, 0, 4<<10)}
	t.b = logtext.AppendTitleField(t.b, d, s.Zone())
	for i := range vals {
		t.b = logtext.AppendField(t.b, d.Sep(), vals[i].Path)
		t.end()
	}
	t.b = logtext.EndRow(t.b)
	if s.OK {
		var times logtext.Times
		t.b = times.AppendField(t.b, s.Local)
	} else {
		t.b = append(t.b, '"', '"')
	}
	for i := range vals {
		t.b = logtext.AppendValue(t.b, d.Sep(), vals[i].Value, vals[i].Status == engine.Valid, digits)
		t.end()
	}
	t.b = logtext.EndRow(t.b)
	t.flush()
	return t.err
}

// csvWriter is WriteCSV's buffer: it writes to w in pieces of about 4 KB.
type csvWriter struct {
	w   io.Writer
	b   []byte
	err error
}

// end writes the buffer once it holds 4 KB.
func (t *csvWriter) end() {
	if len(t.b) >= 4<<10 {
		t.flush()
	}
}

// flush writes the buffer, unless a write failed before.
func (t *csvWriter) flush() {
	if t.err == nil {
		_, t.err = t.w.Write(t.b)
	}
	t.b = t.b[:0]
}
