package engine

import (
	"math"
	"math/bits"
)

//go:generate go run ../tools/genpow5 -o formatpow.go

// formatG is the fast path of AppendFloat: it writes C's %.<digits>g of v
// (1 ≤ digits ≤ MaxDigits), the exact decimal value correctly rounded, to
// out and returns its length. It returns 0 for NaN and ±Inf, and where its
// error bound cannot decide the rounding: within 2^−50 of a rounding tie
// when it scales v approximately (beyond about 10^16 or below 10^−11 at 17
// and 20 digits: a random double lands there with probability 2^−50), and
// on the ties there (none exist at 17 and 20 digits, see below; a few at
// 16 digits or fewer). AppendFloat then prints v with strconv, which is
// exact but slower (up to a hundred times at 20 digits).
//
// # Method
//
// A finite v ≠ 0 is m·2^e with 2^52 ≤ m < 2^53 (subnormals normalized).
// Its decimal exponent X = ⌊log₁₀|v|⌋ is x or x+1, where x = ⌊E·log₁₀2⌋,
// E = e + 52 (TestLog10Pow2 checks the integer formula for every E). An
// integer below 2^53 has at most 16 digits and prints as it is when
// digits ≥ 16. Otherwise, with h = min(digits, 17) − 1 and p = h − 1 − x,
//
//	Y = |v|·10^p, 10^(h−1) ≤ Y < 2·10^h ≤ 2·10^16 < 2^55,
//
// so the integer part H of Y holds the first h digits (h+1 when X = x+1),
// its fraction the other k = digits − h (k−1 when X = x+1; k ≤ 4). 10^p
// is 2^p · 5^(27a) · 5^b with p = 27a + b, 0 ≤ b < 27: M = m·5^b is exact
// in 128 bits (5^26 < 2^61), and 5^(27a) comes from pow5Table as F·2^g, F
// the truncation of 5^(27a)·2^−g to 128 bits, 2^127 ≤ F. So
// Y ≈ (M·F)·2^(e+p+g), an exact 256-bit product shifted, from which H and
// 64 bits of fraction f are read (truncating). For a = 0 (0 ≤ p < 27) Y is
// M·2^(e+p) exactly: at 17 and 20 digits, every v from 10^−11 to 10^16,
// almost every value a counter takes.
//
// # Error bound
//
// F ≤ 5^(27a)·2^−g < F+1 and F ≥ 2^127, so the product underestimates Y by
// less than Y·2^−127 < 2^−72, and truncating the fraction to 64 bits takes
// less than 2^−64 more: with Ŷ = H + f·2^−64,
//
//	Ŷ ≤ Y < Ŷ + 2^−64·(1 + 2^−8).
//
// The remaining digits come from f·10^k, an exact 64×64-bit product: its
// high word L holds them, its low word frac is the fraction left for
// rounding. The product multiplies the error by 10^k ≤ 10^4: the true
// fraction lies in [frac, frac + 10040·2^−64). Rounding to nearest then is
//
//   - up when frac > 1/2: the true fraction exceeds one half;
//   - down when frac < 1/2 − 2^14·2^−64: the true fraction stays below one
//     half (it may also reach 1, a carry into the digits: see below);
//   - otherwise, when Y is exact (a = 0): down when frac < 1/2 and no bit of
//     Y was lost below f; to even when frac = 1/2 and none was (a tie); up
//     when frac = 1/2 and one was; else undecided. Every tie (exact
//     expansion ending in 5 just past the last digit) computes as
//     frac = 1/2 or just below it, so only an exact Y decides one. At 17
//     and 20 digits every tie lies between 10^−10 and 2^52: a tie is
//     v = n·2^−j with n odd below 2^53 and j ≥ 1 (the exact expansion of
//     n·5^j, ending in 5, over 10^j) whose n·5^j has digits+1 digits, so
//     j < (digits+1)·log₅10 and v ≥ 10^(digits−j).
//
// Underestimating never changes a rounded result except near a half: a
// true value just above an integer N may compute as N − 1 + f with f close
// to 1, and then rounds up to N, as the true value rounds down to N. A
// carry out of the top digit (99…9 rounded up) gives 10…0 with X + 1.
func formatG(out *[64]byte, v float64, digits int) int {
	vb := math.Float64bits(v)
	neg := vb>>63 != 0
	be := int(vb>>52) & 0x7ff
	m := vb & (1<<52 - 1)
	switch {
	case be == 0x7ff: // NaN, ±Inf
		return 0
	case be != 0:
		m |= 1 << 52
	case m == 0: // ±0: C prints -0 with its sign, as strconv does
		out[0], out[1] = '-', '0'
		if neg {
			return 2
		}
		out[0] = '0'
		return 1
	default: // subnormal, m·2^−1074: normalized to 53 bits like the others
		z := bits.LeadingZeros64(m) - 11
		m <<= z
		be = 1 - z
	}
	e := be - 1075 // |v| = m·2^e, 2^52 ≤ m < 2^53
	// x = ⌊E·log₁₀2⌋ for E = e + 52 = ⌊log₂|v|⌋ in [−1074, 1023]:
	// 78913/2^18 is log₁₀2 to within 2^−21.
	x := ((e + 52) * 78913) >> 18
	j := uint(max(digits-17, 0)) // digits after the 17th
	// The decimal to print: T's 17 digits (10^16 ≤ T ≤ 10^17), then the
	// j digits of lo, with X = x.
	var T, lo uint64
	if n := m >> uint(-e&63); e <= 0 && e > -53 && n<<uint(-e) == m && digits >= 16 {
		// An integer below 2^53 (at most 16 digits): its digits as they
		// are, the first at 10^16.
		if n >= pow10u64[x+1] {
			x++
		}
		T = n * pow10u64[16-x]
	} else {
		h := min(digits, 17) - 1
		k := digits - h
		p := h - 1 - x // −308 ≤ p ≤ 339
		// p = 27a + b with 0 ≤ b < 27; the table starts at a = pow5MinStep.
		exact := uint(p) < pow5Step // a = 0
		i, b := uint(-pow5MinStep), uint(p)
		if !exact {
			i = uint(p-pow5MinStep*pow5Step) / pow5Step
			b = uint(p-pow5MinStep*pow5Step) % pow5Step
		}
		mh, ml := bits.Mul64(m, pow5Small[b%pow5Step])
		// H and f, and (Y exact) whether bits of Y below f were lost.
		var H, f, lost uint64
		if exact {
			// H:f = M·2^t as a 128-bit number, t = e+p+64; 2^52 ≤ M < 2^114
			// and 0.1 ≤ Y < 2^55 give −54 ≤ t ≤ 66.
			switch t := e + p + 64; {
			case t >= 64:
				H, f = ml<<(uint(t)&63), 0
			case t >= 0:
				u := uint(t) & 63
				H, f = mh<<u|ml>>1>>(63-u), ml<<u
			default:
				u := uint(-t) & 63
				H, f, lost = mh>>u, ml>>u|mh<<(64-u), ml<<(64-u)
			}
		} else {
			// The 256-bit product P = M·F in little-endian words (and zero
			// words above it for the extraction below).
			var P [8]uint64
			fh, fl := pow5Table[i%uint(len(pow5Table))][0], pow5Table[i%uint(len(pow5Table))][1]
			g := (pow5Step*(int(i)+pow5MinStep)*1217359)>>19 - 127 // ⌊27a·log₂5⌋ − 127
			var c uint64
			h0, l0 := bits.Mul64(ml, fl)
			h1, l1 := bits.Mul64(ml, fh)
			h2, l2 := bits.Mul64(mh, fl)
			h3, l3 := bits.Mul64(mh, fh)
			P[0] = l0
			P[1], c = bits.Add64(h0, l1, 0)
			P[2], c = bits.Add64(h1, l3, c)
			P[3] = h3 + c
			P[1], c = bits.Add64(P[1], l2, 0)
			P[2], c = bits.Add64(P[2], h2, c)
			P[3] += c
			// Y ≈ P·2^(e+p+g): the fraction's lowest bit (2^−64) is bit s of
			// P. P ≥ 2^127 and 0.1 ≤ Y < 2^55 give 8 < s < 182.
			s := uint(-(e + p + g) - 64)
			w, r := s>>6&3, s&63
			f = P[w]>>r | P[w+1]<<(64-r)
			H = P[w+1]>>r | P[w+2]<<(64-r)
		}

		if H >= pow10u64[h] { // X = x+1: H has one digit more, L one fewer
			x++
			k--
		}
		L, frac := bits.Mul64(f, pow10u64[k&7])
		// The digits: top, the first min(digits, 17) of them (H, then the
		// first c of L's k digits), and lo, the j = digits − 17 others (L's
		// last; j ≤ 3). L < 10^4: L·⌈2^32/10^j⌉ >> 32 is ⌊L/10^j⌋.
		lhi := L * pow10Recip[j&3] >> 32
		top := H*pow10u64[(k-int(j))&7] + lhi
		lo = L - lhi*pow10u64[j&3]

		const half = 1 << 63
		up := frac > half
		if !up && frac >= half-1<<14 { // near a half, or a tie
			switch {
			case !exact:
				return 0
			case lost == 0 && frac == half: // a tie: to even
				last := top
				if j > 0 {
					last = lo
				}
				up = last&1 != 0
			case lost == 0:
			case frac == half:
				up = true
			default:
				return 0
			}
		}
		if up {
			lo++
			if lo == pow10u64[j&3] { // j = 0 takes this way every time
				lo = 0
				top++
			}
		}
		T = top * pow10u64[17-min(digits, 17)]
	}

	if T == 1e17 {
		T = 1e16
		x++
	}
	// The digit string, first digit in the lowest byte of A (then B, C),
	// as digit values 0..9: T's 17 digits (8 + 8 + 1), lo's j and zeros.
	a, t := T/1e9, T/10 // (in parallel)
	A := digits8(uint32(a))
	B := digits8(uint32(t - a*1e8))
	C := (T - t*10) | digits8(uint32(lo)*uint32(pow10u64[8-(j&3)]))<<8
	// nd: the number of digits without the trailing zeros, the string's
	// leading zero bits (from C down) over 8, without branches:
	// LeadingZeros64(0) = 64 says when to count the next word.
	zc, zb, za := uint(bits.LeadingZeros64(C)), uint(bits.LeadingZeros64(B)), uint(bits.LeadingZeros64(A))
	nd := 24 - int(zc+zb&-(zc>>6)+za&-(zc&zb>>6))>>3

	// The text: [-] then the digits from pos with a point after the q-th
	// (none when q ≥ nd), length chars in all (an integer's zeros are the
	// zero digits after nd), then the exponent; or [-]0.000ddd. Only
	// stores: every index is at most 31, and the masks let the compiler
	// drop the bounds checks.
	out[0] = '-'
	pos := 0
	if neg {
		pos = 1
	}
	sci := x < -4 || x >= digits
	q, length := nd, nd
	switch {
	case sci:
		q = 1
	case x >= 0:
		q, length = x+1, max(nd, x+1)
	default:
		putLE64(out[pos&31:], 0x3030_3030_3030_2e30) // "0.000000"
		pos += 1 - x
	}
	var D uint64
	if q < nd {
		// Bytes from q on move up one place (the point goes at q): the
		// string shifted by a byte (sA…sD), merged at q's word with the
		// bytes below q.
		sA, sB, sC, sD := A<<8, B<<8|A>>56, C<<8|B>>56, C>>56
		m := uint64(1)<<(uint(8*q)&63) - 1
		switch {
		case q < 8:
			A, B, C, D = A&m|sA&^m, sB, sC, sD
		case q < 16:
			B, C, D = B&m|sB&^m, sC, sD
		default:
			C, D = C&m|sC&^m, sD
		}
		length++
	}
	const zeros = 0x3030_3030_3030_3030
	putLE64(out[pos&31:], A|zeros)
	putLE64(out[(pos+8)&31:], B|zeros)
	putLE64(out[(pos+16)&31:], C|zeros)
	putLE64(out[(pos+24)&31:], D|zeros)
	if q < nd {
		out[(pos+q)&31] = '.'
	}
	n := pos + length
	if sci {
		e, sign := uint32(x), uint32('+')
		if x < 0 {
			e, sign = uint32(-x), '-'
		}
		e = e/100 | e/10%10<<8 | e%10<<16 // |x| ≤ 324: three digits
		putLE64(out[n&31:], 'e'|uint64(sign)<<8|uint64(e|0x303030)<<16)
		n += 5
	}
	return n
}

// digits8 returns the 8 decimal digits of u < 10^8 as byte values 0..9,
// the first digit in the lowest byte (ready for a little-endian store once
// '0' is added to each byte). Each step splits every lane of the word at
// once: 4+4 digits in 32-bit lanes, then 2+2 in 16-bit lanes, then 1+1 in
// bytes, dividing by 100 and by 10 with multiplications (n·5243>>19 =
// ⌊n/100⌋ for n < 43699, n·103>>10 = ⌊n/10⌋ for n < 179; no lane's product
// overflows into the next lane).
func digits8(u uint32) uint64 {
	hi, lo := u/10000, u%10000
	x := uint64(hi) | uint64(lo)<<32
	q := (x * 5243 >> 19) & 0x0000007f_0000007f
	x = q | (x-100*q)<<16
	q = (x * 103 >> 10) & 0x000f_000f_000f_000f
	return q | (x-10*q)<<8
}

// pow10Recip[j] is ⌈2^32/10^j⌉.
var pow10Recip = [4]uint64{1 << 32, 429496730, 42949673, 4294968}

// pow10u64[i] is 10^i.
var pow10u64 = [20]uint64{
	1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
}

// pow5Small[b] is 5^b.
var pow5Small = [pow5Step]uint64{
	1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125,
	9765625, 48828125, 244140625, 1220703125, 6103515625, 30517578125,
	152587890625, 762939453125, 3814697265625, 19073486328125,
	95367431640625, 476837158203125, 2384185791015625, 11920928955078125,
	59604644775390625, 298023223876953125, 1490116119384765625,
}
