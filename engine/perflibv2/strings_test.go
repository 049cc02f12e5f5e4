package perflibv2_test

import (
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/tools/encode"
)

func mustStrings(t testing.TB, s *encode.V2Strings) []byte {
	t.Helper()
	b, err := encode.EncodeV2Strings(s)
	if err != nil {
		t.Fatalf("EncodeV2Strings: %v", err)
	}
	return b
}

var names = []encode.V2String{
	{CounterID: 0, Text: "% Processor Time"},
	{CounterID: 1, None: true},
	{CounterID: 2, Text: "Interrupts/sec"},
	{CounterID: 3, Text: ""},
	{CounterID: 4, Text: "a"},
}

func TestStringReadings(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   *encode.V2Strings
		want perflibv2.Reading
	}{
		{"SDK", &encode.V2Strings{Strings: names}, perflibv2.ReadingSDK},
		{"MS-PCQ", &encode.V2Strings{Strings: names, MSPCQ: true}, perflibv2.ReadingMSPCQ},
		// One long string: under the other reading its offset still lands
		// inside the string, before its NUL (the checks pass), so only
		// the layout decides.
		{"SDK, one long string", &encode.V2Strings{Strings: []encode.V2String{{CounterID: 9, Text: "a rather long counter name"}}}, perflibv2.ReadingSDK},
		{"MS-PCQ, one long string", &encode.V2Strings{Strings: []encode.V2String{{CounterID: 9, Text: "a rather long counter name"}}, MSPCQ: true}, perflibv2.ReadingMSPCQ},
		{"no strings", &encode.V2Strings{Strings: []encode.V2String{{CounterID: 1, None: true}}}, perflibv2.ReadingAmbiguous},
		{"no records", &encode.V2Strings{}, perflibv2.ReadingAmbiguous},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := mustStrings(t, tc.in)
			s, err := perflibv2.ParseStrings(b)
			if err != nil {
				t.Fatal(err)
			}
			if s.Reading() != tc.want {
				t.Errorf("Reading: have %v, want %v", s.Reading(), tc.want)
			}
			if s.Len() != len(tc.in.Strings) || int(s.Size) != len(b) || len(b)%8 != 0 {
				t.Errorf("Len %d Size %d (%d bytes), want %d records and dwSize = the 8-aligned block", s.Len(), s.Size, len(b), len(tc.in.Strings))
			}
			for i, w := range tc.in.Strings {
				id, text, ok := s.At(i)
				if id != w.CounterID || ok == w.None || text.String() != w.Text && !w.None {
					t.Errorf("At(%d): have %d %q %v, want %+v", i, id, text.String(), ok, w)
				}
				lt, lok := s.Lookup(w.CounterID)
				if lok != ok || string(lt) != string(text) {
					t.Errorf("Lookup(%d): have %q %v, want %q %v", w.CounterID, lt.String(), lok, text.String(), ok)
				}
			}
			// The forced readings.
			if tc.want != perflibv2.ReadingAmbiguous {
				other := perflibv2.ReadingSDK + perflibv2.ReadingMSPCQ - tc.want
				forced, err := perflibv2.ParseStringsAs(b, tc.want)
				if err != nil || forced.Reading() != tc.want {
					t.Errorf("ParseStringsAs(%v): have %v, %v", tc.want, forced.Reading(), err)
				}
				if o, err := perflibv2.ParseStringsAs(b, other); err == nil {
					// When the other reading passes the checks, it must
					// read different strings.
					_, t0, _ := o.At(0)
					_, w0, _ := forced.At(0)
					if string(t0) == string(w0) {
						t.Errorf("ParseStringsAs(%v) reads the same first string %q", other, t0.String())
					}
				}
			}
		})
	}
	if _, err := perflibv2.ParseStringsAs(mustStrings(t, &encode.V2Strings{}), perflibv2.ReadingAmbiguous); !isFormatError(err) {
		t.Errorf("ParseStringsAs(ambiguous): have %v, want a FormatError", err)
	}
	for r, want := range map[perflibv2.Reading]string{perflibv2.ReadingSDK: "SDK", perflibv2.ReadingMSPCQ: "MS-PCQ", perflibv2.ReadingAmbiguous: "ambiguous", 9: "Reading(9)"} {
		if r.String() != want {
			t.Errorf("Reading(%d).String(): have %q, want %q", r, r.String(), want)
		}
	}
}

func TestStringAmbiguousLayout(t *testing.T) {
	// Hand-made: two records whose offsets make sense both ways and are
	// laid out plausibly for neither: ambiguous, read as SDK.
	b := make([]byte, 64)
	copy(b, []byte{64, 0, 0, 0, 2, 0, 0, 0})
	b = put32(b, 8, 1)
	b = put32(b, 12, 40) // SDK: 40; MS-PCQ: 24+40 = 64 (outside) ...
	b = put32(b, 16, 2)
	b = put32(b, 20, 24)
	// ... so make the block longer and put NULs everywhere after the array.
	b = append(b, make([]byte, 16)...)
	b = put32(b, 0, 80)
	for i := 24; i < 80; i += 2 {
		b[i] = 'x'
	}
	b[50], b[78] = 0, 0 // NULs at 50 and 78
	s, err := perflibv2.ParseStrings(b)
	if err != nil {
		t.Fatal(err)
	}
	if s.Reading() != perflibv2.ReadingAmbiguous {
		t.Errorf("Reading: have %v, want ambiguous", s.Reading())
	}
	if _, text, _ := s.At(0); text.Len() != 5 {
		t.Errorf("At(0) under the SDK reading: have %q, want 5 units from offset 40", text.String())
	}
}

func TestStringErrors(t *testing.T) {
	b := mustStrings(t, &encode.V2Strings{Strings: []encode.V2String{{CounterID: 1, Text: "ab"}, {CounterID: 2, Text: "cd"}}})
	// Header 8, records at 8 and 16, strings at 24 ("ab\0") and 30 ("cd\0"), pad to 40.
	for _, tc := range []struct {
		name   string
		in     []byte
		record string
		offset int64
		field  string
		err    error
	}{
		{"empty", nil, "PERF_STRING_BUFFER_HEADER", 0, "", engine.ErrTruncated},
		{"dwSize below 8", put32(b, 0, 4), "PERF_STRING_BUFFER_HEADER", 0, "dwSize", engine.ErrMalformed},
		{"dwSize outside", put32(b, 0, 48), "PERF_STRING_BUFFER_HEADER", 0, "dwSize", engine.ErrTruncated},
		{"count larger than dwSize", put32(b, 4, 5), "PERF_STRING_BUFFER_HEADER", 4, "dwCounters", engine.ErrMalformed},
		{"count huge", put32(b, 4, 0xFFFFFFFF), "PERF_STRING_BUFFER_HEADER", 4, "dwCounters", engine.ErrMalformed},
		{"offset outside", put32(b, 12, 4000), "PERF_STRING_COUNTER_HEADER", 12, "dwOffset", engine.ErrMalformed},
		{"offset into the headers", put32(b, 20, 2), "PERF_STRING_COUNTER_HEADER", 20, "dwOffset", engine.ErrMalformed},
		{"offset odd", put32(b, 12, 25), "PERF_STRING_COUNTER_HEADER", 12, "dwOffset", engine.ErrMalformed},
		{"string without NUL", put32(put32(put32(b, 28, 0x00640063), 32, 0x00640063), 36, 0x00640063), "PERF_STRING_COUNTER_HEADER", 12, "dwOffset", engine.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := perflibv2.ParseStrings(tc.in)
			wantFormatError(t, err, tc.record, tc.offset, tc.field, tc.err)
		})
	}
	for n := range len(b) {
		// Cut and fix dwSize so that the cut falls in the strings.
		c := b[:n]
		if n >= 8 {
			c = put32(c, 0, uint32(n))
		}
		s, err := perflibv2.ParseStrings(c)
		if err != nil && !isFormatError(err) {
			t.Errorf("cut at %d: have %v, want nil or a FormatError", n, err)
		}
		if err == nil && n < 33 {
			t.Errorf("cut at %d: have %v (%v), want an error (a string is cut)", n, s.Reading(), err)
		}
	}
}

func TestStringAllocs(t *testing.T) {
	b := mustStrings(t, &encode.V2Strings{Strings: names})
	buf := make([]byte, 0, 64)
	n := 0
	allocs := testing.AllocsPerRun(100, func() {
		s, err := perflibv2.ParseStrings(b)
		if err != nil {
			panic(err)
		}
		for i := range s.Len() {
			_, text, _ := s.At(i)
			buf = text.AppendUTF8(buf[:0])
			n += len(buf)
		}
	})
	if allocs != 0 {
		t.Errorf("reading strings: have %v allocs per run, want 0", allocs)
	}
	if n == 0 {
		t.Error("read nothing")
	}
}

// TestStringManyOffsetsOneString: 65,536 records all pointing at one
// 64 KiB string. Checking each offset by scanning for its NUL would take
// billions of steps; the check is linear.
func TestStringManyOffsetsOneString(t *testing.T) {
	const n, units = 1 << 16, 1 << 15
	start := 8 + 8*n
	b := make([]byte, start+2*units+2)
	put := func(off int, v uint32) {
		b[off], b[off+1], b[off+2], b[off+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
	put(0, uint32(len(b)))
	put(4, n)
	for i := range n {
		put(8+8*i, uint32(i))
		put(12+8*i, uint32(start))
	}
	for i := start; i < len(b)-2; i += 2 {
		b[i] = 'x'
	}
	s, err := perflibv2.ParseStrings(b)
	if err != nil {
		t.Fatal(err)
	}
	if s.Reading() != perflibv2.ReadingSDK {
		t.Errorf("Reading: have %v, want SDK (under MS-PCQ the offsets point past the end)", s.Reading())
	}
	if _, text, ok := s.At(n - 1); !ok || text.Len() != units {
		t.Errorf("At(%d): have %d units %v, want %d", n-1, text.Len(), ok, units)
	}
}
