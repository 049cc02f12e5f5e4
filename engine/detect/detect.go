// Package detect tells perfcalc's input formats apart by their bytes: a V1
// PERF_DATA_BLOCK, a PerfLib V2 PerfQueryCounterData result, a name table
// or a perfmon .blg log. Each format's own test lives in its decoder
// package (perfdata.IsV1, perflibv2.IsData, nametable.IsTable, blg.IsLog);
// Format is the one order in which they are tried, shared by the command,
// the WebAssembly module and its hosts.
//
// Like the rest of the engine, it imports only the standard library and
// perfcalc's decoders, never fmt or os.
//
// # Security
//
// The input is untrusted. Format never modifies or keeps it. The V2 test
// walks the whole input with perflibv2's checked decoder (tried before the
// name table's, it is the only one that reads more than the first 80 bytes
// or allocates).
package detect

import (
	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
)

// Kind is an input format. Its values are those of the WebAssembly
// module's kinds (internal/abi's KindV1, KindV2, KindNames, KindBlg).
type Kind uint32

// The formats Format recognises; 0 is none of them.
const (
	V1    Kind = 1 // a V1 HKEY_PERFORMANCE_DATA blob: "PERF" in UTF-16LE (perfdata.IsV1)
	V2    Kind = 2 // a PerfLib V2 PerfQueryCounterData result whose blocks all decode (perflibv2.IsData)
	Names Kind = 3 // a name table: a decimal index in UTF-16LE first (nametable.IsTable)
	Blg   Kind = 4 // a perfmon .blg log: a WMI buffer header and a system trace header (blg.IsLog)
)

// Format tells what data is from its bytes: V1, Blg, V2 or Names, tried in
// that order, or 0 for none of them. V1, Blg and Names need the input's
// first bytes only (80 are enough); V2 reads the whole input.
func Format(data []byte) Kind {
	switch {
	case perfdata.IsV1(data):
		return V1
	case blg.IsLog(data):
		return Blg
	case perflibv2.IsData(data):
		return V2
	case nametable.IsTable(data):
		return Names
	}
	return 0
}
