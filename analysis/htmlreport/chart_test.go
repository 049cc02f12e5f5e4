package htmlreport

import (
	"bytes"
	"github.com/perfcalc/perfcalc/tools/timebound"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/analysis"
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
)

// year is 365 days in FILETIME ticks.
const year = 365 * 86400 * second

// rangeLog is a log of \\SERVER1\Memory\Available MBytes (a counter of
// the default analyses) with a sample at each of the times (local
// FILETIMEs; the log's zone is Pacific).
func rangeLog(times ...int64) []byte {
	c := blgbuild.Counter{Type: uint32(engine.CounterRawcount), Machine: `\\SERVER1`, Object: "Memory", Counter: "Available MBytes"}
	l := blgbuild.New(64<<10, times[0]+8*3600*second)
	l.Record(blgbuild.EventCounterList, times[0], blgbuild.AppendCounterList(nil, c), blgbuild.MaxEventData)
	for i, ts := range times {
		l.Record(blgbuild.EventSample, ts, blgbuild.RawSample(ts, uint64(1000+100*i)), blgbuild.MaxEventData)
	}
	return l.Bytes()
}

// seriesX finds the points of a series' line (points="x,y x,y …") or
// its one point (a circle's cx="x").
var seriesX = regexp.MustCompile(`<polyline class="line" [^>]*points="([^"]*)"|<circle fill="[^"]*" r="2" cx="([^"]*)"`)

var xlab = regexp.MustCompile(`<text class="xlab" x="([0-9.]+)" y="[0-9]+">([^<]*)</text>`)

// TestTimeAxisAnyRange (issue 32, item 11): a 3-sample log of 64 KB
// whose last sample is 20,000 years after its first is reported (it ran
// out of memory: one grid line a week, past the year 2262 where a time's
// nanoseconds overflow, without end); every time axis, from a minute to
// 28,000 years, has from 2 to 10 labels, in order, within the plot, at
// round calendar steps beyond a week; the series' points lie within the
// plot.
func TestTimeAxisAnyRange(t *testing.T) {
	for _, tc := range []struct {
		name   string
		span   int64
		labels string // "" for any
	}{
		{"minute", 60 * second, "18:50:00 18:50:10 18:50:20 18:50:30 18:50:40 18:50:50 18:51:00"},
		{"hour", 3600 * second, "18:50 19:00 19:10 19:20 19:30 19:40 19:50"},
		{"week", 7 * 86400 * second, ""},
		{"8 weeks", 56 * 86400 * second, ""},
		{"9 weeks", 63 * 86400 * second, "2013-03 2013-04"},
		{"year", year, "2013-03 2013-05 2013-07 2013-09 2013-11 2014-01"},
		{"20 years", 20 * year, "2015 2020 2025 2030"},
		{"20,000 years", 20000 * year, "5000 10000 15000 20000"},
		{"28,000 years", 28000 * year, "5000 10000 15000 20000 25000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := rangeLog(begin, begin+tc.span/2, begin+tc.span)
			if len(b) != 64<<10 {
				t.Fatalf("log of %d bytes, want 64 KiB", len(b))
			}
			c, err := relog.New(bytes.NewReader(b), int64(len(b)), relog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := analysis.Run(c, analysis.Defaults(), analysis.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var doc string
			timebound.Within(t, 20*time.Second, "the report of a "+tc.name+" log", func() { doc = write(t, []*analysis.Report{r}) })
			if len(doc) > 1<<20 {
				t.Fatalf("report of %d bytes", len(doc))
			}
			wellFormed(t, doc)
			svg := doc[strings.Index(doc, `<svg class="chart"`):]
			svg = svg[:strings.Index(svg, "</svg>")]
			var labels []string
			last := -1.0
			for _, m := range xlab.FindAllStringSubmatch(svg, -1) {
				x, _ := strconv.ParseFloat(m[1], 64)
				if x < padL || x > padL+plotW || x <= last {
					t.Errorf("label %q at x %s: outside the plot [%d, %d] or not after the last (%g)", m[2], m[1], padL, padL+plotW, last)
				}
				last = x
				labels = append(labels, m[2])
			}
			// the series' points within the plot too (the middle of two
			// FILETIMEs after the year 16,200 overflowed an int64)
			points := 0
			for _, m := range seriesX.FindAllStringSubmatch(svg, -1) {
				for _, xy := range strings.Fields(m[1] + m[2]) {
					xs, _, _ := strings.Cut(xy, ",")
					points++
					if x, err := strconv.ParseFloat(xs, 64); err != nil || x < padL || x > padL+plotW {
						t.Errorf("a point of a series at x %s, outside the plot [%d, %d]", xs, padL, padL+plotW)
					}
				}
			}
			if points != 3 {
				t.Errorf("%d points of the series, want its 3 samples'", points)
			}
			if len(labels) < 2 || len(labels) > maxTimeTicks {
				t.Errorf("%d time labels %q…, want 2 to %d", len(labels), labels[:min(len(labels), 12)], maxTimeTicks)
			}
			if have := strings.Join(labels[:min(len(labels), 12)], " "); tc.labels != "" && have != tc.labels {
				t.Errorf("time labels\nhave %s\nwant %s", have, tc.labels)
			}
		})
	}
}

// TestFileTime: fileTime is wall's inverse over a FILETIME's whole range.
func TestFileTime(t *testing.T) {
	for _, ft := range []int64{0, 1, fileTimeUnix - 1, fileTimeUnix, begin + 12345, 1 << 62, 1<<63 - 1} {
		if have := fileTime(wall(ft)); have != ft {
			t.Errorf("fileTime(wall(%d)) = %d", ft, have)
		}
	}
}

// TestTimeTicksWholeRange: a range from 1601 to the last FILETIME (30828),
// 9.2e18 ticks, whose span overflowed an int64 into a negative number (ten
// labels a second apart, all at the range's start), gets a few year ticks
// in order; a range that ends before it begins gets at most one tick.
func TestTimeTicksWholeRange(t *testing.T) {
	ticks, layout := timeTicks(0, float64(math.MaxInt64))
	if layout != "2006" || len(ticks) < 2 || len(ticks) > maxTimeTicks {
		t.Fatalf("%d ticks, layout %q; want 2 to %d year ticks", len(ticks), layout, maxTimeTicks)
	}
	for i := 1; i < len(ticks); i++ {
		if !ticks[i].After(ticks[i-1]) || ticks[i].Year()-ticks[i-1].Year() < 1000 {
			t.Errorf("ticks %v then %v: want years at least 1,000 apart, in order", ticks[i-1], ticks[i])
		}
	}
	if back, _ := timeTicks(1_000_000_000, 0); len(back) > 1 {
		t.Errorf("a range that ends before it begins: %d ticks", len(back))
	}
}
