package engine

import (
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The references AppendFloat's fast path (formatG) is checked against.
//
// strconvG is the exact path AppendFloat falls back on: strconv's %g, which
// is exact for every precision, with the exponent widened to three digits.
func strconvG(v float64, digits int) string {
	return string(widenExponent(strconv.AppendFloat(nil, v, 'g', digits, 64), 0))
}

// bigG is an independent reference: math/big's exact decimal conversion of
// the double rounded (ties to even) to digits significant digits, laid out
// as C's %g by this test's own code.
func bigG(v float64, digits int) string {
	neg := math.Signbit(v)
	v = math.Abs(v)
	if v == 0 {
		if neg {
			return "-0"
		}
		return "0"
	}
	e := new(big.Float).SetFloat64(v).Text('e', digits-1) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	x, err := strconv.Atoi(exp)
	if err != nil {
		panic(e)
	}
	return refLayoutG(neg, strings.Replace(mant, ".", "", 1), x, digits)
}

// refLayoutG lays out the correctly rounded significant digits ds of a value
// with decimal exponent x as C's %.<digits>g does, with Microsoft's
// three-digit exponent.
func refLayoutG(neg bool, ds string, x, digits int) string {
	ds = strings.TrimRight(ds, "0")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	switch {
	case x < -4 || x >= digits:
		b.WriteString(ds[:1])
		if len(ds) > 1 {
			b.WriteString("." + ds[1:])
		}
		sign := "+"
		if x < 0 {
			sign, x = "-", -x
		}
		b.WriteString("e" + sign + strings.Repeat("0", 3-len(strconv.Itoa(x))) + strconv.Itoa(x))
	case x < 0:
		b.WriteString("0." + strings.Repeat("0", -x-1) + ds)
	case len(ds) <= x+1:
		b.WriteString(ds + strings.Repeat("0", x+1-len(ds)))
	default:
		b.WriteString(ds[:x+1] + "." + ds[x+1:])
	}
	return b.String()
}

// exactDecimal returns the exact decimal expansion of |v| ≠ 0 as its
// significant digits (no leading or trailing zeros).
func exactDecimal(v float64) string {
	s := new(big.Float).SetFloat64(math.Abs(v)).Text('f', 1100)
	s = strings.Replace(s, ".", "", 1)
	return strings.Trim(s, "0")
}

// checkFloat compares AppendFloat's fast path with strconvG (and bigG when
// withBig) for v at digits, and reports whether the fast path decided.
// When it did not, AppendFloat's own result is compared instead.
func checkFloat(t testing.TB, v float64, digits int, withBig bool) (fast bool) {
	want := strconvG(v, digits)
	have, ok := AppendFloatFast([]byte("x"), v, digits)
	if !ok {
		have = AppendFloat([]byte("x"), v, digits)
	}
	if string(have) != "x"+want {
		t.Errorf("%%.%dg of %v (%#016x): have %q, want %q (fast path: %v)", digits, v, math.Float64bits(v), have[1:], want, ok)
	}
	if withBig {
		if b := bigG(v, digits); b != want {
			t.Errorf("%%.%dg of %v (%#016x): strconv %q, math/big %q", digits, v, math.Float64bits(v), want, b)
		}
	}
	return ok
}

// randomValuesEnv sets how many random doubles TestAppendFloatRandom
// checks (make format-check sets 10^8); 10^6 by default.
const randomValuesEnv = "PERFCALC_FORMAT_VALUES"

// TestAppendFloatRandom checks %.17g and %.20g of random doubles against
// strconv (every value) and math/big (one in a hundred): half of them with
// uniformly random bits (every exponent, subnormals, both signs), half with
// a random 52-bit mantissa and a binary exponent from −40 to 70 (1e−12 to
// 1e21: the values counters take, most of them where the fast path scales
// exactly). It also counts how often the fast path falls back to strconv.
func TestAppendFloatRandom(t *testing.T) {
	n := 1_000_000
	if s := os.Getenv(randomValuesEnv); s != "" {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f < 1 {
			t.Fatalf("%s=%q: want a count", randomValuesEnv, s)
		}
		n = int(f)
	}
	workers := runtime.GOMAXPROCS(0)
	var mu sync.Mutex
	var checked, fallbacks, bigChecked int
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 0xf0a7))
			c, fb, bc := 0, 0, 0
			for i := w; i < n; i += workers {
				v, ok := randomDouble(rng, i%2 == 1)
				for !ok { // n finite values
					v, ok = randomDouble(rng, i%2 == 1)
				}
				withBig := i%100 == 0
				for _, d := range []int{LegacyDigits, DefaultDigits} {
					if !checkFloat(t, v, d, withBig) {
						fb++
					}
					c++
				}
				if withBig {
					bc++
				}
				if t.Failed() {
					return
				}
			}
			mu.Lock()
			checked, fallbacks, bigChecked = checked+c, fallbacks+fb, bigChecked+bc
			mu.Unlock()
		}()
	}
	wg.Wait()
	t.Logf("%d values (%d texts, %d values also against math/big); fast path fell back on %d", checked/2, checked, bigChecked, fallbacks)
	// The fast path decides every tie at 17 and 20 digits (many of the
	// values counters take are ties at 20 digits), and falls back only
	// within 2^−50 of a half where it scales approximately.
	if fallbacks > checked/1_000_000 {
		t.Errorf("the fast path fell back on %d of %d texts", fallbacks, checked)
	}
}

// randomDouble returns a double with uniformly random bits, or (counters)
// with a random sign and 52-bit mantissa and a binary exponent from −40 to
// 70; false for NaN and ±Inf.
func randomDouble(rng *rand.Rand, counters bool) (float64, bool) {
	u := rng.Uint64()
	if counters {
		u = u&(1<<63|1<<52-1) | uint64(1023-40+rng.IntN(111))<<52
	}
	v := math.Float64frombits(u)
	return v, !math.IsNaN(v) && !math.IsInf(v, 0)
}

// TestAppendFloatAllDigits checks every precision from 1 to 20 on random
// doubles of both kinds (see TestAppendFloatRandom).
func TestAppendFloatAllDigits(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 20_000 {
		v, ok := randomDouble(rng, i%2 == 1)
		if !ok {
			continue
		}
		for d := 1; d <= MaxDigits; d++ {
			checkFloat(t, v, d, i%200 == 0)
		}
		if t.Failed() {
			return
		}
	}
}

// TestAppendFloatPowersOfTwo checks every power of two (2^−1074 to 2^1023)
// at every precision, and against math/big at 17 and 20 digits.
func TestAppendFloatPowersOfTwo(t *testing.T) {
	for e := -1074; e <= 1023; e++ {
		v := math.Ldexp(1, e)
		for d := 1; d <= MaxDigits; d++ {
			checkFloat(t, v, d, d == LegacyDigits || d == DefaultDigits)
		}
		checkFloat(t, -v, DefaultDigits, false)
		if t.Failed() {
			return
		}
	}
}

// TestAppendFloatSubnormals checks the smallest and largest subnormals,
// the normals around them, and random subnormals.
func TestAppendFloatSubnormals(t *testing.T) {
	vals := []float64{
		math.Float64frombits(1), math.Float64frombits(2), math.Float64frombits(3),
		math.Float64frombits(1<<52 - 1), math.Float64frombits(1 << 52), math.Float64frombits(1<<52 + 1),
		math.Float64frombits(1 << 51), math.Float64frombits(1<<51 + 1),
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 4000 {
		vals = append(vals, math.Float64frombits(rng.Uint64N(1<<52)))
	}
	for i, v := range vals {
		for _, d := range []int{1, 6, 15, 16, LegacyDigits, 18, 19, DefaultDigits} {
			checkFloat(t, v, d, i < 100 && (d == LegacyDigits || d == DefaultDigits))
			checkFloat(t, -v, d, false)
		}
		if t.Failed() {
			return
		}
	}
}

// neighbours returns the doubles from n steps below v to n steps above it.
func neighbours(v float64, n int) []float64 {
	out := []float64{v}
	lo, hi := v, v
	for range n {
		lo, hi = math.Nextafter(lo, math.Inf(-1)), math.Nextafter(hi, math.Inf(1))
		out = append(out, lo, hi)
	}
	return out
}

// TestAppendFloatDecades checks values on both sides of every power of ten
// 10^k (k from −323 to 308), where the decimal exponent changes, and of
// every rounding boundary (10^d − 1/2)·10^(k−d), where d digits round up to
// 10^k, at every precision d: three doubles each side of each.
func TestAppendFloatDecades(t *testing.T) {
	for k := -323; k <= 308; k++ {
		p, err := strconv.ParseFloat("1e"+strconv.Itoa(k), 64)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range neighbours(p, 3) {
			for _, d := range []int{1, 2, 16, LegacyDigits, DefaultDigits} {
				checkFloat(t, v, d, d == DefaultDigits)
			}
		}
		for d := 1; d <= MaxDigits; d++ {
			b, err := strconv.ParseFloat(strings.Repeat("9", d)+"5e"+strconv.Itoa(k-d-1), 64)
			if err != nil && b == 0 {
				continue // below the subnormals
			}
			for _, v := range neighbours(b, 3) {
				if v == 0 || math.IsInf(v, 0) {
					continue
				}
				checkFloat(t, v, d, d == LegacyDigits || d == DefaultDigits)
			}
		}
		if t.Failed() {
			return
		}
	}
}

// ties returns doubles that are rounding ties at digits significant digits:
// m·2^−j with m odd has the exact expansion of the integer m·5^j, ending in
// 5 for j > 0, scaled by 10^−j; it is a tie when m·5^j has digits+1
// digits (for j = 0, when m also ends in 5).
func ties(digits int, rng *rand.Rand) []float64 {
	var out []float64
	lo := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits)), nil)
	hi := new(big.Int).Mul(lo, big.NewInt(10))
	for j := 0; j <= 1074; j++ {
		p := new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(j)), nil)
		// m in [⌈lo/5^j⌉, ⌊(hi−1)/5^j⌋], odd, below 2^53.
		mlo := new(big.Int).Quo(new(big.Int).Add(lo, new(big.Int).Sub(p, big.NewInt(1))), p)
		mhi := new(big.Int).Quo(new(big.Int).Sub(hi, big.NewInt(1)), p)
		if mhi.Sign() == 0 || mlo.Cmp(big.NewInt(1<<53)) >= 0 {
			if mhi.Sign() == 0 {
				break
			}
			continue
		}
		a, b := max(mlo.Uint64(), 1), min(mhi.Uint64(), 1<<53-1)
		if a > b {
			continue
		}
		for i := range 40 {
			m := a + rng.Uint64N(b-a+1)
			switch i {
			case 0:
				m = a
			case 1:
				m = b
			}
			m |= 1
			if j == 0 { // an odd integer: a tie when it ends in 5
				m = m/10*10 + 5
			}
			if m > b && m >= 10 {
				m -= 10
			}
			if m < a || m > b {
				continue
			}
			out = append(out, math.Ldexp(float64(m), -j))
		}
	}
	return out
}

// TestAppendFloatTies checks rounding ties (exact expansions ending in 5
// just past the last digit; ties to even) and their neighbours at every
// precision. At 17 and 20 digits, every tie lies in the range the fast path
// computes exactly, so it must decide them itself.
func TestAppendFloatTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for d := 1; d <= MaxDigits; d++ {
		ts := ties(d, rng)
		if len(ts) < 100 {
			t.Fatalf("%d digits: only %d ties constructed", d, len(ts))
		}
		for i, v := range ts {
			if ds := exactDecimal(v); len(ds) != d+1 || ds[d] != '5' {
				t.Fatalf("%v (%s) is not a tie at %d digits", v, ds, d)
			}
			withBig := i%10 == 0
			fast := checkFloat(t, v, d, withBig)
			if !fast && (d == LegacyDigits || d == DefaultDigits) {
				t.Errorf("%%.%dg of %v: the fast path fell back on a tie", d, v)
			}
			for _, w := range neighbours(v, 2)[1:] {
				checkFloat(t, w, d, withBig)
			}
			checkFloat(t, -v, d, false)
		}
		if t.Failed() {
			return
		}
	}
}

// TestAppendFloatIntegers checks integers: every one up to 2^17, random
// ones below and above 2^53 and 2^64 up to 2^80, and 2^k, 10^k and their
// integer neighbours.
func TestAppendFloatIntegers(t *testing.T) {
	digits := []int{1, 15, 16, LegacyDigits, 18, 19, DefaultDigits}
	for i := range 1 << 17 {
		checkFloat(t, float64(i), LegacyDigits, false)
		checkFloat(t, float64(i), DefaultDigits, false)
	}
	var vals []float64
	rng := rand.New(rand.NewPCG(9, 10))
	for range 20_000 {
		vals = append(vals, float64(rng.Uint64N(1<<53)), float64(rng.Uint64()), float64(rng.Uint64())*float64(1+rng.IntN(1<<16)))
	}
	for k := 0; k <= 80; k++ {
		p := math.Ldexp(1, k)
		vals = append(vals, p-1, p, p+1, p-2, p+2)
	}
	for k := 0; k <= 25; k++ {
		p := math.Pow10(k)
		vals = append(vals, p-1, p, p+1, p-5, p+5, p-10, p+10)
	}
	for i, v := range vals {
		for _, d := range digits {
			checkFloat(t, v, d, i%50 == 0)
		}
		if t.Failed() {
			return
		}
	}
}

// TestLog10Pow2 checks the integer formula formatG takes ⌊E·log₁₀2⌋ with,
// for every binary exponent of a double: 10^x ≤ 2^E < 10^(x+1).
func TestLog10Pow2(t *testing.T) {
	two, ten := big.NewRat(2, 1), big.NewRat(10, 1)
	for E := -1074; E <= 1023; E++ {
		x := (E * 78913) >> 18
		p2 := ratPow(two, E)
		if ratPow(ten, x).Cmp(p2) > 0 || ratPow(ten, x+1).Cmp(p2) <= 0 {
			t.Errorf("E = %d: x = %d is not ⌊E·log₁₀2⌋", E, x)
		}
	}
}

func ratPow(b *big.Rat, n int) *big.Rat {
	r := new(big.Rat).SetInt(new(big.Int).Exp(b.Num(), big.NewInt(int64(abs(n))), nil))
	if n < 0 {
		r.Inv(r)
	}
	return r
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// TestPow5Table checks every entry against math/big, independently of the
// generator: F is 5^(27a)·2^−g truncated, 2^127 ≤ F < 2^128, with g as
// formatG computes it; and pow5Small.
func TestPow5Table(t *testing.T) {
	for i, e := range pow5Table {
		a := i + pow5MinStep
		n := pow5Step * a
		g := (n*1217359)>>19 - 127
		f := new(big.Int).Lsh(new(big.Int).SetUint64(e[0]), 64)
		f.Or(f, new(big.Int).SetUint64(e[1]))
		if f.BitLen() != 128 {
			t.Errorf("5^%d: F has %d bits", n, f.BitLen())
		}
		// F·2^g ≤ 5^n < (F+1)·2^g, compared as rationals.
		p5 := ratPow(big.NewRat(5, 1), n)
		lo := new(big.Rat).Mul(new(big.Rat).SetInt(f), ratPow(big.NewRat(2, 1), g))
		hi := new(big.Rat).Mul(new(big.Rat).SetInt(new(big.Int).Add(f, big.NewInt(1))), ratPow(big.NewRat(2, 1), g))
		if lo.Cmp(p5) > 0 || hi.Cmp(p5) <= 0 {
			t.Errorf("5^%d: F = %#x, g = %d is not the truncation", n, f, g)
		}
	}
	for b, v := range pow5Small {
		if new(big.Int).SetUint64(v).Cmp(new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(b)), nil)) != 0 {
			t.Errorf("pow5Small[%d] = %d", b, v)
		}
	}
	for j, r := range pow10Recip {
		for L := range uint64(10_000) {
			if have, want := L*r>>32, L/pow10u64[j]; have != want {
				t.Fatalf("%d·pow10Recip[%d]>>32 = %d, want %d", L, j, have, want)
			}
		}
	}
	for i, v := range pow10u64 {
		if strconv.FormatUint(v, 10) != "1"+strings.Repeat("0", i) {
			t.Errorf("pow10u64[%d] = %d", i, v)
		}
	}
}

func TestDigits8(t *testing.T) {
	check := func(u uint32) {
		var b [8]byte
		x := digits8(u) | 0x3030_3030_3030_3030
		for i := range b {
			b[i] = byte(x >> (8 * i))
		}
		if want := strconv.FormatUint(uint64(u)+1e8, 10)[1:]; string(b[:]) != want {
			t.Fatalf("digits8(%d) = %q, want %q", u, b, want)
		}
	}
	for u := range uint32(100_000) {
		check(u)
		check(99_999_999 - u)
		check(u * 1000)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for range 200_000 {
		check(rng.Uint32N(1e8))
	}
}
