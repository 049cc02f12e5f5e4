package logtext

import "github.com/perfcalc/perfcalc/engine/internal/filetime"

// AppendTime appends a local FILETIME as relog prints it:
// MM/DD/YYYY HH:MM:SS.mmm (the milliseconds truncated, as Windows'
// FileTimeToSystemTime does).
func AppendTime(dst []byte, ft int64) []byte { return appendTime(dst, ft, false) }

// AppendISOTime appends a local FILETIME as YYYY-MM-DDTHH:MM:SS.mmm.
func AppendISOTime(dst []byte, ft int64) []byte { return appendTime(dst, ft, true) }

func appendTime(dst []byte, ft int64, iso bool) []byte {
	c := filetime.Split(ft)
	return appendClock(appendDate(dst, c, iso), c)
}

// appendDate appends the date of c and the separator before its clock.
func appendDate(dst []byte, c filetime.Civil, iso bool) []byte {
	f, w, sep := [3]int64{c.Month, c.Day, c.Year}, [3]int{2, 2, 4}, "// "
	if iso {
		f, w, sep = [3]int64{c.Year, c.Month, c.Day}, [3]int{4, 2, 2}, "--T"
	}
	for i := range f {
		dst = append(appendFixed(dst, f[i], w[i]), sep[i])
	}
	return dst
}

// appendClock appends the clock of c: HH:MM:SS.mmm.
func appendClock(dst []byte, c filetime.Civil) []byte {
	for i, v := range [4]int64{c.Hour, c.Minute, c.Second, c.Ticks / 10_000} {
		if i > 0 {
			dst = append(dst, "::."[i-1])
		}
		dst = appendFixed(dst, v, 2+i/3)
	}
	return dst
}

// appendFixed appends v in decimal with at least width digits (a minus
// sign before them when v is negative), without strconv: a time stamp
// takes seven of these per row.
func appendFixed(dst []byte, v int64, width int) []byte {
	var b [20]byte
	u := uint64(v)
	if v < 0 {
		dst = append(dst, '-')
		u = -u
	}
	i := len(b)
	for n := 0; i > 0 && (n < width || u > 0 || n == 0); n++ {
		i--
		b[i] = byte('0' + u%10)
		u /= 10
	}
	return append(dst, b[i:]...)
}

// Times prints the time stamps of a table's rows, keeping the text of the
// last date it printed: the rows of one day share it (the date is most of
// the work of printing a time). The zero Times is ready; one goroutine
// uses it at a time.
type Times struct {
	day  int64  // days since 1601 of date, when date is set
	date []byte // the date as AppendTime or AppendISOTime prints it, with the separator after it
	iso  bool
}

// Append appends ft as AppendTime prints it, or as AppendISOTime when iso.
func (t *Times) Append(dst []byte, ft int64, iso bool) []byte {
	days := filetime.FloorDiv(ft, filetime.TicksPerDay)
	if t.date == nil || days != t.day || iso != t.iso {
		t.day, t.iso = days, iso
		t.date = appendDate(t.date[:0], filetime.Split(days*filetime.TicksPerDay), iso)
	}
	return appendClock(append(dst, t.date...), filetime.Clock(ft-days*filetime.TicksPerDay))
}

// AppendField appends a CSV or TSV row's first field: the local time ft
// in quotes (AppendTime). The values follow it (AppendValue, AppendAbsent),
// then EndRow.
func (t *Times) AppendField(dst []byte, ft int64) []byte {
	dst = append(dst, '"')
	return append(t.Append(dst, ft, false), '"')
}

// AppendJSONRow begins a JSON row (a line of JSON Lines):
// {"time":"2013-02-19T18:50:17.844","values":{ with the local time ft in
// ISO 8601 without a zone. The members follow it, each a JSON string
// (AppendJSONString), a colon and a value (AppendJSONValue), separated by
// commas; JSONRowEnd ends it.
func (t *Times) AppendJSONRow(dst []byte, ft int64) []byte {
	dst = append(dst, `{"time":"`...)
	dst = t.Append(dst, ft, true)
	return append(dst, `","values":{`...)
}
