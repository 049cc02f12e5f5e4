package main

import (
	"github.com/perfcalc/perfcalc/engine/translate"
	"github.com/perfcalc/perfcalc/internal/abi"
)

// Names in any language (doc/COMMANDS.md §7.1): names_load gives the
// instance translation sources in the compact form, which the log exports
// (of both modules) then use as perfcalc --names-lang en uses its
// --names-file files.

var (
	// nameB holds the sources names_load gave, in order; nameTab is
	// their translation table (nil without sources).
	nameB   translate.Builder
	nameTab *translate.Table
	// namer is the translation of the last log export, for names_unknown.
	namer *translate.Namer
)

// namesLoad adds a translation source: the n bytes at off of the input
// buffer, the compact form (doc/FORMATS.md §3.4), named by the UTF-8 text
// at nameOff (nameLen bytes) where the list of names not translated names
// a source (an ambiguity). The log exports then translate object and
// counter names to English (and their counter patterns match the English
// names) from the sources, in the order given, as perfcalc --names-lang en
// does with its --names-file files (translate.Table's rules). It returns
// the number of sources; n = 0 drops them all (returns 0). A malformed
// source is refused (CodeMalformed, its line and byte offset in err_ptr)
// and drops every source. (The module reads neither name tables nor
// CounterLang.xml: perfcalc names --compact turns them into the compact
// form; a Vista-era log's table is not used: ABI.md "Names" says why.)
//
//go:wasmexport names_load
func namesLoad(nameOff, nameLen, off, n uint32) (rc int32) {
	defer recovered(&rc)
	clearError()
	namer = nil
	if n == 0 {
		nameB, nameTab = translate.Builder{}, nil
		return 0
	}
	name, code := inRegion("names_load name", nameOff, nameLen)
	if code != 0 {
		return code
	}
	data, code := inRegion("names_load source", off, n)
	if code != 0 {
		return code
	}
	if err := nameB.AddCompact(nameB.Source(string(name)), data); err != nil {
		nameB, nameTab = translate.Builder{}, nil
		return fail(abi.CodeOf(err), err)
	}
	nameTab = nameB.Table()
	return int32(nameTab.Sources())
}

// renamer returns the relog.Options.Rename of a log export's logs (nil
// without sources); the Namer it makes is names_unknown's.
func renamer([][]byte) (func(string, string) (string, string), error) {
	namer = nil
	if nameTab == nil {
		return nil, nil
	}
	namer = translate.NewNamer(nameTab)
	return namer.Rename, nil
}

// namesUnknown writes into the output buffer, one per line ("\n" after
// each), the names that the last log export met and did not translate
// (translate.Namer.Unknown: "object X", "counter Y (of Z)", sorted, as
// perfcalc --names-lang lists them on standard error). It returns the
// bytes written (CodeSpace when they do not fit the buffer; last_detail
// the bytes needed).
//
//go:wasmexport names_unknown
func namesUnknown() (rc int32) {
	defer recovered(&rc)
	clearError()
	var lines []string
	if namer != nil {
		lines = namer.Unknown()
	}
	n := 0
	for _, l := range lines {
		if n+len(l) < len(outBuf) {
			copy(outBuf[n:], l)
			outBuf[n+len(l)] = '\n'
		}
		n += len(l) + 1
	}
	if n > len(outBuf) {
		lastDetail = uint32(n)
		setError("perfcalc: names_unknown: the list does not fit the output buffer")
		return abi.CodeSpace
	}
	return int32(n)
}
