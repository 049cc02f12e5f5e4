package abi

import (
	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
)

// Sniff tells what data is from its bytes (sniff): KindV1 for a V1
// PERF_DATA_BLOCK (perfdata.IsV1), KindV2 for a PerfLib V2 result whose
// blocks all decode (perflibv2.IsData), KindBlg for a .blg log
// (blg.IsLog), KindNames for a name table (nametable.IsTable), 0 for none
// of them. Each format's test lives in its decoder package; this is the one
// order they are tried in, shared by the module, its hosts and the
// command. The V2 test reads the whole input; the others its first bytes.
func Sniff(data []byte) uint32 {
	switch {
	case perfdata.IsV1(data):
		return KindV1
	case blg.IsLog(data):
		return KindBlg
	case perflibv2.IsData(data):
		return KindV2
	case nametable.IsTable(data):
		return KindNames
	}
	return 0
}
