package relog

import (
	"encoding/json"
	"strings"
	"testing"
)

// This file tests what happens when names collide: a path the log holds
// twice, names that differ only in case, instance names that are not
// valid UTF-16.

const (
	collideLocal = 130057734178440000 // 02/19/2013 18:50:17.844, Pacific
	rawCount     = 0x00010100         // PERF_COUNTER_LARGE_RAWCOUNT: the value is FirstValue
)

// rawCountLog is a log of the counters cs, all PERF_COUNTER_LARGE_RAWCOUNT
// (Type is set here), one sample per values[k], a value per counter.
func rawCountLog(cs []counterSpec, values ...[]uint64) []byte {
	l := newLog(pacific, collideLocal+8*3600*ticksPerSecond)
	for i := range cs {
		cs[i].Type = rawCount
	}
	l.record(0x20, collideLocal, counterList(cs...))
	for k, vs := range values {
		ts := int64(collideLocal + k*ticksPerSecond)
		var subs [][]byte
		for _, v := range vs {
			subs = append(subs, rawRec(0, ts, v, 0))
		}
		l.record(0x22, ts, sampleRecord(subs...))
	}
	return l.bytes()
}

// TestJSONRepeatedPath: a path the log holds twice has two keys in the
// JSON rows (the second "<path> (duplicate 2)", which skips a key that is
// another column's path), so that a parser keeps every column's value;
// CSV keeps both columns under the same header.
func TestJSONRepeatedPath(t *testing.T) {
	log := rawCountLog([]counterSpec{
		{Machine: `\\H`, Object: "Memory", Counter: "Available Bytes"},
		{Machine: `\\H`, Object: "Memory", Counter: "Available Bytes"},
		{Machine: `\\H`, Object: "Memory", Counter: "Available Bytes (duplicate 2)"},
		{Machine: `\\H`, Object: "Memory", Counter: "Available Bytes"},
	}, []uint64{1, 2, 3, 4}, []uint64{11, 12, 13, 14})
	for _, f := range []Format{JSON, CSV} {
		seq, par, seqErr, parErr := writeBoth(t, log, Options{}, f)
		if seqErr != nil || parErr != nil {
			t.Fatal(seqErr, parErr)
		}
		text := string(joinPieces(seq))
		if text != string(joinPieces(par)) {
			t.Errorf("format %d: the pipeline writes other text", f)
		}
		if f == CSV {
			if !strings.Contains(text, `"\\H\Memory\Available Bytes","\\H\Memory\Available Bytes","\\H\Memory\Available Bytes (duplicate 2)","\\H\Memory\Available Bytes"`) ||
				!strings.Contains(text, `.844","11","12","13","14"`) {
				t.Errorf("CSV:\n%s", text)
			}
			continue
		}
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		if len(lines) != 2 {
			t.Fatalf("%d JSON lines, want 2:\n%s", len(lines), text)
		}
		for k, line := range lines {
			var row struct{ Values map[string]float64 }
			if err := json.Unmarshal([]byte(line), &row); err != nil {
				t.Fatal(err)
			}
			want := map[string]float64{
				`\\H\Memory\Available Bytes`:               float64(10*k + 1),
				`\\H\Memory\Available Bytes (duplicate 3)`: float64(10*k + 2),
				`\\H\Memory\Available Bytes (duplicate 2)`: float64(10*k + 3),
				`\\H\Memory\Available Bytes (duplicate 4)`: float64(10*k + 4),
			}
			if len(row.Values) != len(want) || strings.Count(line, `":`) != len(want)+2 { // with "time" and "values"
				t.Errorf("row %d: have %v, want %v", k, row.Values, want)
			}
			for key, v := range want {
				if have, ok := row.Values[key]; !ok || have != v {
					t.Errorf("row %d: %s: have %v, want %v", k, key, have, v)
				}
			}
		}
	}
}

// joinPieces returns what Write wrote.
func joinPieces(p pieces) []byte {
	var b []byte
	for _, c := range p.calls {
		b = append(b, c...)
	}
	return b
}
