package palxml

import (
	"strings"

	"github.com/perfcalc/perfcalc/analysis"
	"github.com/perfcalc/perfcalc/analysis/psexpr"
)

// The generated datasources that recur in PAL's files compute, per
// sample or per slice, one counter's value divided by another's, times a
// constant: PAL's SQL Server ratios (Forwarded Records, FreeSpace Scans,
// Page Splits … to Batch Requests), network utilisation (Bytes
// Total/Sent/Received per second × 8 ÷ Current Bandwidth × 100) and a few
// percentages of the same form: 47 of PAL's 60 Generated datasources.
// ratio finds the one line that computes the value:
//
//	[int]$iRatio = $([double]$A[$a].Value[$v] / [double]$B[$m].Value[$v]) * 100
//	[int]$iPercentageOfNetworkUtilization = (([double]$A[$i].QuantizedAvg[$v] * 8) / [double]$B[$b].QuantizedAvg[$v]) * 100
//
// (A hand-written matcher, not package regexp, which would add 600 KB to
// the WebAssembly module.)

// generated recognises a Generated datasource's CODE, or says why it
// cannot be evaluated.
func generated(code string) (*analysis.Formula, string) {
	if strings.Contains(strings.ToLower(code), "[math]::") {
		return nil, unrecognised
	}
	for _, l := range strings.Split(code, "\n") {
		if f, ok := ratio(strings.TrimSpace(l)); ok {
			return f, ""
		}
	}
	return nil, unrecognised
}

const unrecognised = "a hand-written PowerShell computation (loops over the counter instances), not one of the generated forms perfcalc evaluates (a ratio of two counters times a constant)"

// matcher walks a line, case-insensitively.
type matcher struct {
	s  string
	i  int
	ok bool
}

func (m *matcher) ws() {
	for m.i < len(m.s) && (m.s[m.i] == ' ' || m.s[m.i] == '\t' || m.s[m.i] == '\r') {
		m.i++
	}
}

// lit consumes s (ASCII, case-insensitive) after optional white space.
func (m *matcher) lit(s string) bool {
	if !m.ok {
		return false
	}
	m.ws()
	if len(m.s)-m.i < len(s) || !strings.EqualFold(m.s[m.i:m.i+len(s)], s) {
		m.ok = false
		return false
	}
	m.i += len(s)
	return true
}

// opt consumes s if it is there.
func (m *matcher) opt(s string) bool {
	save := *m
	if m.lit(s) {
		return true
	}
	*m = save
	return false
}

func (m *matcher) word() string {
	if !m.ok {
		return ""
	}
	m.ws()
	k := m.i
	for k < len(m.s) && (isWordByte(m.s[k])) {
		k++
	}
	if k == m.i {
		m.ok = false
	}
	w := m.s[m.i:k]
	m.i = k
	return w
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func (m *matcher) number() float64 {
	w := m.word()
	v, ok := psexpr.ParseNumber(w)
	if !ok || v > 1e15 {
		m.ok = false
	}
	return v
}

// operand reads [double]$A[$x].Value[$v] or .QuantizedAvg[$v].
func (m *matcher) operand() (name string, perSlice bool) {
	m.lit("[double]")
	m.lit("$")
	name = m.word()
	m.lit("[$")
	m.word()
	m.lit("].")
	switch strings.ToLower(m.word()) {
	case "value":
	case "quantizedavg":
		perSlice = true
	default:
		m.ok = false
	}
	m.lit("[$v]")
	return name, perSlice
}

func ratio(line string) (*analysis.Formula, bool) {
	m := &matcher{s: line, ok: true}
	m.lit("[int]")
	m.lit("$")
	m.word()
	m.lit("=")
	m.opt("$")
	m.lit("(")
	f := &analysis.Formula{Op: '/', Scale: 1, Integer: true}
	inner := m.opt("(")
	var ps1, ps2 bool
	f.Left, ps1 = m.operand()
	if inner {
		m.lit("*")
		f.Scale *= m.number()
		m.lit(")")
	}
	m.lit("/")
	f.Right, ps2 = m.operand()
	m.lit(")")
	if m.opt("*") {
		f.Scale *= m.number()
	}
	m.ws()
	if !m.ok || m.i != len(m.s) || ps1 != ps2 {
		return nil, false
	}
	f.PerSlice = ps1
	return f, true
}
