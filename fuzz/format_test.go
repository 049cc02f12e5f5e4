package fuzz

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// FuzzAppendFloat: engine.AppendFloat (its fast path wherever that decides
// the rounding) equals the exact path, strconv's %g with the exponent
// widened to three digits, for any bits of a double and any digits; the
// text has no two-digit exponent, and reads back as the same double at 17
// digits or more (and in the shortest form).
func FuzzAppendFloat(f *testing.F) {
	for _, s := range formatSeeds() {
		for _, d := range []int{engine.LegacyDigits, engine.DefaultDigits} {
			f.Add(s, d)
		}
	}
	for _, d := range []int{engine.ShortestDigits, 0, 1, 6, 15, 16, 18, 19, 21} {
		f.Add(math.Float64bits(2251799813685246.25), d)
	}
	f.Fuzz(func(t *testing.T, bits uint64, digits int) {
		v := math.Float64frombits(bits)
		have := string(engine.AppendFloat([]byte("x"), v, digits))
		if !strings.HasPrefix(have, "x") {
			t.Fatalf("AppendFloat(%q) lost its prefix: %q", "x", have)
		}
		have = have[1:]
		if digits == engine.ShortestDigits {
			if back, err := strconv.ParseFloat(have, 64); !math.IsNaN(v) && (err != nil || back != v) {
				t.Errorf("shortest of %v (%#016x): %q reads back as %v (%v)", v, bits, have, back, err)
			}
		} else {
			d := min(max(digits, 1), engine.MaxDigits)
			if want := widenedG(v, d); have != want {
				t.Errorf("%%.%dg of %v (%#016x): have %q, want %q", d, v, bits, have, want)
			}
			if back, err := strconv.ParseFloat(have, 64); d >= engine.LegacyDigits && !math.IsNaN(v) && (err != nil || back != v) {
				t.Errorf("%%.%dg of %v (%#016x): %q reads back as %v (%v)", d, v, bits, have, back, err)
			}
		}
		if _, exp, ok := strings.Cut(have, "e"); ok && len(exp) != 4 {
			t.Errorf("%v (%#016x) at %d digits: %q has a %d-digit exponent", v, bits, digits, have, len(exp)-1)
		}
	})
}

// widenedG is strconv's %.<digits>g of v with a two-digit exponent widened
// to three digits.
func widenedG(v float64, digits int) string {
	s := strconv.FormatFloat(v, 'g', digits, 64)
	if n := len(s); n >= 4 && s[n-4] == 'e' {
		return s[:n-2] + "0" + s[n-2:]
	}
	return s
}

// formatSeeds returns bits of doubles to start from: the edges (zeros,
// subnormals, powers of two and ten, ties at 17 and 20 digits, integers
// around 2^53 and 2^64), and the values of the real 20-digit CSV logs
// when ../shared/corpus is there.
func formatSeeds() []uint64 {
	vals := []float64{
		0, math.Copysign(0, -1), 5e-324, 2.225073858507201e-308, 2.2250738585072014e-308,
		math.MaxFloat64, 1, 0.1, 1e-5, 1e16, 1e17, 1e21, 1e22, 1e23, 0.0001, 0.00001,
		1 << 53, 1<<53 + 2, 1 << 63, 1 << 64, 18446744073709549568,
		2251799813685246.25,      // a tie at 17 digits
		123456789012.001953125,   // a tie at 20 digits
		9.9999999999999999995e-5, // rounds up to the next decade at 20 digits
		44.997307068154057674, 6.5500000000000006459e-005,
	}
	var seeds []uint64
	for _, v := range vals {
		seeds = append(seeds, math.Float64bits(v), math.Float64bits(-v))
	}
	if root := corpus.Root(); root != "" {
		b, _ := os.ReadFile(filepath.Join(filepath.Dir(root), "shared", "corpus", "pdh-text", "desktop2022_disk_20digits.csv"))
		lines := bytes.Split(b, []byte("\r\n"))
		for _, line := range lines[min(1, len(lines)):min(4, len(lines))] {
			for _, c := range bytes.Split(bytes.Trim(line, `"`), []byte(`","`)) {
				if v, err := strconv.ParseFloat(string(c), 64); err == nil && v != 0 {
					seeds = append(seeds, math.Float64bits(v))
				}
			}
		}
	}
	return seeds
}
