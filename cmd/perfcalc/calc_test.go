package main

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
)

// f returns its argument as a float64 variable, so that the arithmetic on
// it happens in float64 at run time, as in the engine, and not in Go's exact
// constant arithmetic.
func f(v float64) float64 { return v }

// g17 prints v as %.17g.
func g17(v float64) string { return strconv.FormatFloat(v, 'g', 17, 64) }

// runCmd runs perfcalc in-process and returns its exit status and output.
func runCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestCalcText(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{
			name: "issue example: 100 ns inverse timer",
			args: []string{"--type", "PERF_100NSEC_TIMER_INV", "--old", "4000000,100000000", "--new", "6500000,110000000", "--timebase", "10000000"},
			// 100 * (1 − ΔN/ΔD) with ΔN = 2,500,000 and ΔD = 10,000,000.
			want: g17(100*(1-f(2500000)/f(10000000))) + " Valid\n",
		},
		{
			name: "100 ns time base needs no --timebase",
			args: []string{"--type", "PERF_100NSEC_TIMER_INV", "--old", "4000000,100000000", "--new", "6500000,110000000"},
			want: "75 Valid\n",
		},
		{
			name: "type by hexadecimal number, rate with QPC frequency",
			args: []string{"--type", "0x10410400", "--old", "1000,7178903079", "--new", "1373,7393676247", "--timebase", "3579545", "--digits", "17"},
			want: g17(f(373)/(f(214773168)/f(3579545))) + " Valid\n",
		},
		{
			name: "type by decimal number",
			args: []string{"--type", "65792", "--new", "18446744073709551615,0", "--digits", "17"},
			want: "1.8446744073709552e+019 Valid\n",
		},
		{
			name: "1-sample type without --old",
			args: []string{"--type", "PERF_RAW_FRACTION", "--new", "1,3", "--digits", "17"},
			want: g17((f(1)/f(3))*100) + " Valid\n",
		},
		{
			name: "2-sample type without --old answers NewData",
			args: []string{"--type", "PERF_COUNTER_DELTA", "--new", "5,0"},
			want: "0 NewData\n",
		},
		{
			name: "a delta whose samples did not advance answers NegativeDenominator",
			args: []string{"--type", "PERF_COUNTER_DELTA", "--old", "5,7", "--new", "9,7"},
			want: "0 NegativeDenominator\n",
		},
		{
			name: "20 digits by default, as every command",
			args: []string{"--type", "PERF_100NSEC_TIMER", "--old", "0,0", "--new", "1,3"},
			want: "33.333333333333328596 Valid\n",
		},
		{
			name: "--digits 17 as Windows before 2020",
			args: []string{"--type", "PERF_100NSEC_TIMER", "--old", "0,0", "--new", "1,3", "--digits", "17"},
			want: "33.333333333333329 Valid\n",
		},
		{
			name: "--digits 20 as current Windows",
			args: []string{"--type", "PERF_100NSEC_TIMER", "--old", "0,0", "--new", "1,3", "--digits", "20"},
			want: "33.333333333333328596 Valid\n",
		},
		{
			name: "three-digit exponent",
			args: []string{"--type", "PERF_COUNTER_LARGE_RAWCOUNT", "--new", "9223372036854775808,0", "--digits", "17"},
			want: "9.2233720368547758e+018 Valid\n",
		},
		{
			name: "no cap by default",
			args: []string{"--type", "PERF_RAW_FRACTION", "--new", "3,2"},
			want: "150 Valid\n",
		},
		{
			name: "cap100",
			args: []string{"--type", "PERF_RAW_FRACTION", "--new", "3,2", "--options", "cap100"},
			want: "100 Valid\n",
		},
		{
			name: "scale and 1000 in order",
			args: []string{"--type", "PERF_COUNTER_RAWCOUNT", "--new", "7,0", "--options", "scale=-2,1000"},
			want: g17(f(7)/100*1000) + " Valid\n",
		},
		{
			name: "options in any case and order (engine.ParseOptions)",
			args: []string{"--type", "PERF_RAW_FRACTION", "--new", "3,2", "--options", " 1000 , CAP100"},
			want: "100000 Valid\n",
		},
		{
			name: "wrap32",
			args: []string{"--type", "PERF_COUNTER_DELTA", "--old", "4294967290,0", "--new", "5,1", "--options", "wrap32"},
			want: "11 Valid\n",
		},
		{
			name: "backwards without wrap32",
			args: []string{"--type", "PERF_COUNTER_DELTA", "--old", "4294967290,0", "--new", "5,1"},
			want: "0 NegativeValue\n",
		},
		{
			name: "hex type prints hexadecimal",
			args: []string{"--type", "PERF_COUNTER_RAWCOUNT_HEX", "--new", "0x1f,0"},
			want: "0x1F Valid\n",
		},
		{
			name: "multi timer with MultiCount",
			args: []string{"--type", "PERF_100NSEC_MULTI_TIMER", "--old", "0,0,2", "--new", "10000000,10000000,2"},
			want: "50 Valid\n",
		},
		{
			name: "negative raw value read as int64 bits",
			args: []string{"--type", "PERF_COUNTER_LARGE_RAWCOUNT", "--new", "-1,0", "--digits", "17"},
			want: "1.8446744073709552e+019 Valid\n",
		},
		{
			name: "base type is not displayable",
			args: []string{"--type", "PERF_PRECISION_TIMESTAMP", "--new", "1,0"},
			want: "0 NotDisplayable\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCmd(t, "", append([]string{"calc"}, tc.args...)...)
			if code != 0 || out != tc.want {
				t.Errorf("have exit %d, stdout %q, stderr %q; want exit 0, stdout %q", code, out, errs, tc.want)
			}
		})
	}
}

func TestCalcJSON(t *testing.T) {
	code, out, errs := runCmd(t, "", "calc", "--type", "PERF_100NSEC_TIMER_INV", "--old", "4000000,100000000", "--new", "6500000,110000000", "--timebase", "10000000", "--json")
	want := `{"type":"PERF_100NSEC_TIMER_INV","value":75,"status":"Valid"}` + "\n"
	if code != 0 || out != want {
		t.Fatalf("have exit %d, %q (stderr %q); want %q", code, out, errs, want)
	}
	// A value that needs all 17 digits must read back as the same float64.
	code, out, _ = runCmd(t, "", "calc", "--type", "PERF_RAW_FRACTION", "--new", "1,3", "--json")
	var res struct {
		Value float64 `json:"value"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 {
		t.Fatalf("have exit %d, %q, %v", code, out, err)
	}
	if want := (f(1) / f(3)) * 100; math.Float64bits(res.Value) != math.Float64bits(want) {
		t.Errorf("value reads back as %v, want %v bit for bit", res.Value, want)
	}
}

func TestCalcUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"no type", []string{"--new", "1,2"}, "--type is required"},
		{"unknown type name", []string{"--type", "PERF_NOPE", "--new", "1,2"}, "not a winperf.h counter type"},
		{"unknown type number", []string{"--type", "0x12345678", "--new", "1,2"}, "not a winperf.h counter type"},
		{"no new", []string{"--type", "PERF_COUNTER_RAWCOUNT"}, "--new is required"},
		{"one number", []string{"--type", "PERF_COUNTER_RAWCOUNT", "--new", "1"}, "want FirstValue,SecondValue"},
		{"four numbers", []string{"--type", "PERF_COUNTER_RAWCOUNT", "--new", "1,2,3,4"}, "want FirstValue,SecondValue"},
		{"not a number", []string{"--type", "PERF_COUNTER_RAWCOUNT", "--new", "x,2"}, "FirstValue \"x\""},
		{"above 2^64-1", []string{"--type", "PERF_COUNTER_RAWCOUNT", "--new", "18446744073709551616,2"}, "18446744073709551616"},
		{"multicount too big", []string{"--type", "PERF_COUNTER_RAWCOUNT", "--new", "1,2,4294967296"}, "MultiCount"},
		{"bad old", []string{"--type", "PERF_COUNTER_DELTA", "--old", "1;2", "--new", "1,2"}, "--old"},
		{"bad timebase", []string{"--type", "PERF_COUNTER_COUNTER", "--old", "1,2", "--new", "1,3", "--timebase", "fast"}, "--timebase"},
		{"missing timebase", []string{"--type", "PERF_COUNTER_COUNTER", "--old", "1,2", "--new", "1,3"}, "give it with --timebase"},
		{"unknown option", []string{"--type", "PERF_COUNTER_RAWCOUNT", "--new", "1,2", "--options", "nocap"}, "unknown option"},
		{"scale out of range", []string{"--type", "PERF_COUNTER_RAWCOUNT", "--new", "1,2", "--options", "scale=11"}, "from -10 to 10"},
		{"scale without S", []string{"--type", "PERF_COUNTER_RAWCOUNT", "--new", "1,2", "--options", "scale"}, "give the counter's DefaultScale, scale=S"},
		{"unknown flag", []string{"--typo", "x"}, "flag provided but not defined"},
		{"stray argument", []string{"--type", "PERF_COUNTER_RAWCOUNT", "--new", "1,2", "extra"}, "unexpected argument"},
		{"batch with flags", []string{"--batch", "--type", "PERF_COUNTER_RAWCOUNT"}, "--batch takes its requests"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCmd(t, "", append([]string{"calc"}, tc.args...)...)
			if code != exitUsage || out != "" || !strings.Contains(errs, tc.want) {
				t.Errorf("have exit %d, stdout %q, stderr %q; want exit 2 and a message containing %q", code, out, errs, tc.want)
			}
		})
	}
}

func TestUnknownCommand(t *testing.T) {
	code, _, errs := runCmd(t, "", "frobnicate")
	if code != exitUsage || !strings.Contains(errs, `unknown command "frobnicate"`) {
		t.Errorf("have exit %d, stderr %q", code, errs)
	}
	if code, _, _ := runCmd(t, ""); code != exitUsage {
		t.Errorf("no arguments: have exit %d, want %d", code, exitUsage)
	}
	if code, out, _ := runCmd(t, "", "help"); code != 0 || !strings.Contains(out, "calc") {
		t.Errorf("help: have exit %d, %q", code, out)
	}
}

func TestCalcBatch(t *testing.T) {
	in := strings.Join([]string{
		`{"type": "PERF_100NSEC_TIMER_INV", "old": [4000000, 100000000], "new": [6500000, 110000000], "timebase": 10000000}`,
		`{"type": "PERF_COUNTER_LARGE_RAWCOUNT", "new": [18446744073709551615, 0]}`,
		`{"type": 272696320, "old": [1, 0], "new": [101, 3579545], "timebase": 3579545}`,
		``,
		`not json`,
		`{"type": "PERF_RAW_FRACTION", "new": [3, 2], "options": ["cap100"]}`,
		`{"type": "PERF_COUNTER_RAWCOUNT", "new": [7, 0], "scale": -2, "options": ["1000"]}`,
		`{"type": "PERF_COUNTER_DELTA", "new": [7, 0]}`,
		`{"type": "PERF_COUNTER_COUNTER", "old": [1, 0], "new": [2, 1]}`,
		`{"type": "PERF_NOPE", "new": [1, 0]}`,
		`{"type": "PERF_COUNTER_RAWCOUNT", "new": [1.5, 0]}`,
		`{"type": "PERF_COUNTER_RAWCOUNT", "new": [1, 0], "colour": "red"}`,
		`{"type": "PERF_COUNTER_RAWCOUNT", "new": [18446744073709551616, 0]}`,
		`{"type": "PERF_COUNTER_RAWCOUNT", "new": [1, 0], "options": ["scale=2"]}`,
		`{"type": "PERF_COUNTER_RAWCOUNT"}`,
	}, "\n")
	code, out, errs := runCmd(t, in, "calc", "--batch")
	if code != exitError {
		t.Errorf("have exit %d, want %d because some lines are bad (stderr %q)", code, exitError, errs)
	}
	want := []string{
		`{"type":"PERF_100NSEC_TIMER_INV","value":75,"status":"Valid"}`,
		`{"type":"PERF_COUNTER_LARGE_RAWCOUNT","value":1.8446744073709552e+019,"status":"Valid"}`,
		`{"type":"PERF_COUNTER_COUNTER","value":100,"status":"Valid"}`,
		`{"line":5,"error":`,
		`{"type":"PERF_RAW_FRACTION","value":100,"status":"Valid"}`,
		`{"type":"PERF_COUNTER_RAWCOUNT","value":` + strconv.FormatFloat(f(7)/100*1000, 'g', -1, 64) + `,"status":"Valid"}`,
		`{"type":"PERF_COUNTER_DELTA","value":0,"status":"NewData"}`,
		`{"line":9,"error":"PERF_COUNTER_COUNTER divides by the frequency`,
		`{"line":10,"error":"\"type\": `,
		`{"line":11,"error":`,
		`{"line":12,"error":`,
		`{"line":13,"error":"\"new\": FirstValue \"18446744073709551616\"`,
		`{"line":14,"error":"\"options\": \"scale=2\": give the scale as \"scale\": S"}`,
		`{"line":15,"error":"\"new\" is required"}`,
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("have %d result lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i := range want {
		if !strings.HasPrefix(lines[i], want[i]) {
			t.Errorf("result %d:\nhave %s\nwant %s…", i+1, lines[i], want[i])
		}
		if !json.Valid([]byte(lines[i])) {
			t.Errorf("result %d is not valid JSON: %s", i+1, lines[i])
		}
	}
}

func TestCalcBatchExactIntegers(t *testing.T) {
	// Both raw values round to 2^63 as float64; parsed exactly, their delta
	// is 2. A parser that went through float64 would answer 0.
	in := `{"type":"PERF_COUNTER_LARGE_DELTA","old":[9223372036854775809,0],"new":[9223372036854775811,1]}` + "\n"
	code, out, _ := runCmd(t, in, "calc", "--batch")
	want := `{"type":"PERF_COUNTER_LARGE_DELTA","value":2,"status":"Valid"}` + "\n"
	if code != 0 || out != want {
		t.Errorf("have exit %d, %q; want %q", code, out, want)
	}
}

func TestCalcBatchLongLine(t *testing.T) {
	long := `{"type":"PERF_COUNTER_RAWCOUNT","new":[1,0],"options":["` + strings.Repeat("x", maxBatchLine) + `"]}`
	in := long + "\n" + `{"type":"PERF_COUNTER_RAWCOUNT","new":[1,0]}` + "\n"
	code, out, _ := runCmd(t, in, "calc", "--batch")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != exitError || len(lines) != 2 || !strings.Contains(lines[0], "longer than") || !strings.Contains(lines[1], `"status":"Valid"`) {
		t.Errorf("have exit %d, output %.200q", code, out)
	}
}
