package engine

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// printfG17 holds C's printf("%.17g") of each value, given by its bits.
// The strings were generated once with a small C program compiled by
// gcc 12.2.0 against glibc 2.36 (Debian 12), which read the bit patterns,
// memcpy'd them into a double and printed "%.17g"; they are pasted here as
// literals so that the test needs no C compiler.
var printfG17 = []struct {
	bits uint64
	want string
}{
	{0x0000000000000000, "0"},
	{0x3ff0000000000000, "1"},
	{0x4059000000000000, "100"},
	{0x3fb999999999999a, "0.10000000000000001"},
	{0x3fd5555555555555, "0.33333333333333331"},
	{0x4050aaaaaaaaaaab, "66.666666666666671"},
	{0x4341c37937e08000, "10000000000000000"},
	{0x4376345785d8a000, "1e+17"},
	{0x43e56a95319d63e1, "1.2345678901234567e+19"},
	{0x3ee4f8b588e368f1, "1.0000000000000001e-05"},
	{0x3f1a36e2eb1c432d, "0.0001"},
	{0x3f202e4b6ce5dc68, "0.00012344999999999999"},
	{0x40fe240c9fbe76c9, "123456.789"},
	{0x0000000000000001, "4.9406564584124654e-324"},
	{0x7fefffffffffffff, "1.7976931348623157e+308"},
	{0x4340000000000000, "9007199254740992"},
	{0x4340000000000001, "9007199254740994"},
	{0x43e0000000000000, "9.2233720368547758e+18"},
	{0x43f0000000000000, "1.8446744073709552e+19"},
	{0x4058ffffffffffff, "99.999999999999986"},
	{0x4059000000000001, "100.00000000000001"},
	{0x3fd3333333333334, "0.30000000000000004"},
	{0x444b1ae4d6e2ef50, "1e+21"},
	{0x4480f0cf064dd592, "1e+22"},
	{0x3c36b082c2148b8e, "1.23e-18"},
	{0x414312d000000000, "2500000"},
	{0x3ff8000000000000, "1.5"},
	{0x0010000000000000, "2.2250738585072014e-308"},
	{0x4029000000000000, "12.5"},
	{0x43118b54f22aeb03, "1234567890123456.8"},
	{0x4345ee2a2eb5a5c4, "12345678901234568"},
	{0x3fe0000000000000, "0.5"},
	{0x54b249ad2594c37d, "1e+100"},
	{0x4afc65eb85ded503, "1.7e+53"},
	{0x3eb0000000000000, "9.5367431640625e-07"},
	{0x4046d6e63c53d770, "45.678901234567888"},
	{0x4008000000000001, "3.0000000000000004"},
}

// msvc widens the exponent of a glibc %g string to three digits, as
// Microsoft's C runtime writes it (e-05 → e-005).
func msvc(glibc string) string {
	mant, exp, ok := strings.Cut(glibc, "e")
	if !ok {
		return glibc
	}
	sign, digits := exp[:1], exp[1:]
	for len(digits) < 3 {
		digits = "0" + digits
	}
	return mant + "e" + sign + digits
}

func TestAppendValueMatchesPrintf(t *testing.T) {
	for _, tc := range printfG17 {
		want := msvc(tc.want)
		t.Run(want, func(t *testing.T) {
			v := math.Float64frombits(tc.bits)
			r := Result{Value: v, Status: Valid}
			if have := string(AppendValue(nil, CounterCounter, r, LegacyDigits)); have != want {
				t.Errorf("AppendValue: have %q, want %q", have, want)
			}
			if have := string(AppendFloat([]byte("x="), v, 17)); have != "x="+want {
				t.Errorf("AppendFloat: have %q, want %q", have, "x="+want)
			}
		})
	}
}

// printfG20 holds glibc's printf("%.20g") and ("%.17g") of each value (gcc
// 12.2.0, glibc 2.36, as for printfG17), among them values that real
// Windows 10/11 logs print (6.5500000000000006459e-005,
// 44.997307068154057674, 3.3011502253651360951e-005) and a rounding tie at
// 17 digits (…246.25, ties to even).
var printfG20 = []struct {
	bits   uint64
	want20 string
	want17 string
}{
	{0x3f112c9b3c2e1e8b, "6.5514540478978585433e-05", "6.5514540478978585e-05"},
	{0x4046d7fa3c0b1a5b, "45.687324052258837526", "45.687324052258838"},
	{0x3ff8e2a4a0d9b1a1, "1.5553327830522010178", "1.555332783052201"},
	{0x43e0000000000000, "9223372036854775808", "9.2233720368547758e+18"},
	{0x0000000000000001, "4.9406564584124654418e-324", "4.9406564584124654e-324"},
	{0x7fefffffffffffff, "1.7976931348623157081e+308", "1.7976931348623157e+308"},
	{0x3fb999999999999a, "0.10000000000000000555", "0.10000000000000001"},
	{0x4059000000000001, "100.00000000000001421", "100.00000000000001"},
	{0x444b1ae4d6e2ef50, "1e+21", "1e+21"},
	{0x3eb0000000000000, "9.5367431640625e-07", "9.5367431640625e-07"},
	{0x4340000000000001, "9007199254740994", "9007199254740994"},
	{0x3ff0000000000000, "1", "1"},
	{0x3f112ba16e7a311f, "6.5500000000000006459e-05", "6.5500000000000006e-05"},
	{0x40467fa7c20ce54a, "44.997307068154057674", "44.997307068154058"},
	{0x3f014eba94a03e06, "3.3011502253651360951e-05", "3.3011502253651361e-05"},
	{0x431ffffffffffff9, "2251799813685246.25", "2251799813685246.2"},
}

func TestAppendFloatDigits(t *testing.T) {
	for _, tc := range printfG20 {
		v := math.Float64frombits(tc.bits)
		for _, c := range []struct {
			digits int
			want   string
		}{{DefaultDigits, msvc(tc.want20)}, {LegacyDigits, msvc(tc.want17)}} {
			if have := string(AppendFloat(nil, v, c.digits)); have != c.want {
				t.Errorf("%%.%dg of %#016x: have %q, want %q", c.digits, tc.bits, have, c.want)
			}
			if have := string(AppendFloat(nil, -v, c.digits)); have != "-"+c.want {
				t.Errorf("%%.%dg of -%#016x: have %q, want %q", c.digits, tc.bits, have, "-"+c.want)
			}
		}
	}
	// Digits outside 1..20 are clamped.
	for _, tc := range []struct {
		digits int
		want   string
	}{{0, "0.1"}, {1, "0.1"}, {-5, "0.1"}, {21, "0.10000000000000000555"}, {1000, "0.10000000000000000555"}} {
		if have := string(AppendFloat(nil, 0.1, tc.digits)); have != tc.want {
			t.Errorf("digits %d: have %q, want %q", tc.digits, have, tc.want)
		}
	}
}

func TestAppendFloatShortest(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{0, "0"},
		{100, "100"},
		{-2.5, "-2.5"},
		{0.1, "0.1"},
		{6.55e-5, "6.55e-005"},
		{0.0001, "0.0001"},
		{0.00012345, "0.00012345"},
		{1e16, "10000000000000000"},
		{1e17, "1e+017"},
		{1 << 63, "9.223372036854776e+018"},
		{123456.789, "123456.789"},
		{5e-324, "5e-324"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{100.0 / 3, "33.333333333333336"},
	} {
		have := string(AppendFloat([]byte("x"), tc.v, ShortestDigits))
		if have != "x"+tc.want {
			t.Errorf("%v: have %q, want %q", tc.v, have, "x"+tc.want)
		}
		if back, err := strconv.ParseFloat(have[1:], 64); err != nil || back != tc.v {
			t.Errorf("%q reads back as %v (%v), want %v", have[1:], back, err, tc.v)
		}
	}
}

// No text any form prints has a two-digit exponent.
func TestAppendFloatNoTwoDigitExponent(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		v := math.Float64frombits(rng.Uint64())
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		for _, d := range []int{ShortestDigits, 1, 6, LegacyDigits, DefaultDigits} {
			s := string(AppendFloat(nil, v, d))
			if _, exp, ok := strings.Cut(s, "e"); ok && len(exp) != 4 {
				t.Fatalf("%v at %d digits: %q", v, d, s)
			}
			if d != ShortestDigits && d < LegacyDigits {
				continue // fewer digits than a float64 needs: need not read back
			}
			if back, err := strconv.ParseFloat(s, 64); err != nil || back != v {
				t.Fatalf("%v at %d digits: %q reads back as %v (%v)", v, d, s, back, err)
			}
		}
	}
}

func TestAppendValueHex(t *testing.T) {
	for _, tc := range []struct {
		name string
		typ  CounterType
		v    float64
		want string
	}{
		{"zero", CounterRawcountHex, 0, "0x0"},
		{"beef", CounterRawcountHex, 0xBEEF, "0xBEEF"},
		{"dword max", CounterRawcountHex, 0xFFFFFFFF, "0xFFFFFFFF"},
		{"large", CounterLargeRawcountHex, 0xDEADBEEF00, "0xDEADBEEF00"},
		{"2^63", CounterLargeRawcountHex, 1 << 63, "0x8000000000000000"},
		{"2^64 clamps", CounterLargeRawcountHex, 1 << 64, "0xFFFFFFFFFFFFFFFF"},
		{"huge clamps", CounterLargeRawcountHex, 1e300, "0xFFFFFFFFFFFFFFFF"},
		{"negative clamps", CounterLargeRawcountHex, -5, "0x0"},
		{"fraction truncates", CounterLargeRawcountHex, 10.75, "0xA"},
		{"decimal type is not hex", CounterLargeRawcount, 0xBEEF, "48879"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if have := string(AppendValue([]byte("|"), tc.typ, Result{Value: tc.v}, DefaultDigits)); have != "|"+tc.want {
				t.Errorf("have %q, want %q", have, "|"+tc.want)
			}
		})
	}
	// Through Compute: a raw count displays as its hex digits.
	in := one(CounterLargeRawcountHex, 0, 0x1234ABCD, 0)
	if have, want := string(AppendValue(nil, in.Type, Compute(&in, 0), DefaultDigits)), "0x1234ABCD"; have != want {
		t.Errorf("computed: have %q, want %q", have, want)
	}
	if have, want := string(AppendHex(nil, math.NaN())), "0x0"; have != want {
		t.Errorf("NaN: have %q, want %q", have, want)
	}
}

func TestAppendValueNotValid(t *testing.T) {
	for s := NewData; s <= UnknownType; s++ {
		t.Run(s.String(), func(t *testing.T) {
			for _, typ := range []CounterType{CounterCounter, CounterRawcountHex, 0x12345678} {
				if have := string(AppendValue([]byte("a,"), typ, Result{Value: 42, Status: s}, DefaultDigits)); have != "a, " {
					t.Errorf("%v: have %q, want %q", typ, have, "a, ")
				}
			}
		})
	}
}
