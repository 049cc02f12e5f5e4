package palxml

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/analysis"
)

// The generated datasources that recur in PAL's files compute, per
// sample or per slice, one counter's value divided by another's, times a
// constant: PAL's SQL Server ratios (Forwarded Records, FreeSpace Scans,
// Page Splits … to Batch Requests, 32 of the 60 Generated datasources),
// network utilisation (Bytes Total/Sent/Received per second × 8 ÷ Current
// Bandwidth × 100) and a few percentages of the same form. ratioLine finds
// the one line that computes the value:
//
//	[int]$iRatio = $([double]$A[$a].Value[$v] / [double]$B[$m].Value[$v]) * 100
//	[int]$iPercentageOfNetworkUtilization = (([double]$A[$i].QuantizedAvg[$v] * 8) / [double]$B[$b].QuantizedAvg[$v]) * 100
var ratioLine = regexp.MustCompile(`(?i)\[int\]\s*\$\w+\s*=\s*\$?\(\s*(\(\s*)?\[double\]\s*\$(\w+)\[\$\w+\]\.(Value|QuantizedAvg)\[\$v\]\s*(\*\s*(\d+)\s*\)\s*)?/\s*\[double\]\s*\$(\w+)\[\$\w+\]\.(Value|QuantizedAvg)\[\$v\]\s*\)(?:\s*\*\s*(\d+))?\s*$`)

// generated recognises a Generated datasource's CODE (see ratioLine), or
// says why it cannot be evaluated.
func generated(code string) (*analysis.Formula, string) {
	var found []string
	for _, l := range strings.Split(code, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "#") {
			continue
		}
		if m := ratioLine.FindStringSubmatch(l); m != nil {
			found = m
			break
		}
	}
	if found == nil || strings.Contains(strings.ToLower(code), "[math]::") {
		return nil, "a hand-written PowerShell computation (loops over the counter instances), not one of the generated forms perfcalc evaluates (a ratio of two counters times a constant)"
	}
	// found: 1 "(" of (A * N), 2 A, 3 A's Value or QuantizedAvg, 4 "* N)",
	// 5 N, 6 B, 7 B's Value or QuantizedAvg, 8 the scale.
	if (found[1] != "") != (found[4] != "") || !strings.EqualFold(found[3], found[7]) {
		return nil, "a generated ratio whose parentheses or operands perfcalc does not read"
	}
	f := &analysis.Formula{Left: found[2], Right: found[6], Op: '/', Scale: 1, Integer: true,
		PerSlice: strings.EqualFold(found[3], "QuantizedAvg")}
	for _, n := range []string{found[5], found[8]} {
		if n != "" {
			v, err := strconv.ParseFloat(n, 64)
			if err != nil {
				return nil, "a generated ratio's constant " + strconv.Quote(n) + " is not a number"
			}
			f.Scale *= v
		}
	}
	return f, ""
}
