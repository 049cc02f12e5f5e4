//go:build !perfcalcanalyze

package main

import (
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/abi"
)

// method is the abi.Builder method of the current log export (decode_blg,
// relog_stats, relog_columns), for its builder, logs.
var method func(*abi.Builder, []byte, relog.Options) error

// finish ends the result that builder built, or reports err: it returns
// the bytes written, or err's code.
func finish(err error) int32 {
	if err != nil {
		lastDetail = abi.DetailOf(err)
		return fail(abi.CodeOf(err), err)
	}
	n, _, _ := out.Finish(&builder.Summary)
	if builder.Damage != nil {
		setError(builder.Damage.Error())
	}
	return int32(n)
}

// decodeV1 decodes the V1 PERF_DATA_BLOCK at inOff (n bytes) of the input
// buffer with the optional name table at namesOff (namesLen bytes; 0 names
// "#<index>"): abi.Builder.V1.
//
//go:wasmexport decode_v1
func decodeV1(inOff, n, namesOff, namesLen, options, first uint32) int32 {
	args = [len(args)]uint32{inOff, n, namesOff, namesLen, options}
	return build(v1)
}

// v1 is decode_v1's builder.
func v1() int32 {
	options := args[4]
	if code := checkOptions("decode_v1", options); code != 0 {
		return code
	}
	data, code := inRegion("decode_v1 input", args[0], args[1])
	if code != 0 {
		return code
	}
	names, code := optional("name table", args[2], args[3])
	if code != 0 {
		return code
	}
	return finish(builder.V1(data, names, engine.Options(options)))
}

// checkOptions checks the option bits of decode_v1, decode_v2 and query
// (op): CodeArgument for a reserved bit.
func checkOptions(op string, options uint32) int32 {
	if options&^abi.OptionsMask != 0 {
		return refuse("perfcalc: " + op + ": reserved bits set in options")
	}
	return 0
}

// optional returns the region (off, n) of an optional input: nil when n is
// 0, whatever off is.
func optional(what string, off, n uint32) ([]byte, int32) {
	if n == 0 {
		return nil, 0
	}
	return inRegion(what, off, n)
}

// decodeV2 decodes the PerfLib V2 PerfQueryCounterData result at dataOff
// (dataLen bytes) with the counterset's registration at regOff, its
// optional name strings at strOff and idsCount optional u32 counter ids at
// idsOff: abi.Builder.V2.
//
//go:wasmexport decode_v2
func decodeV2(dataOff, dataLen, regOff, regLen, strOff, strLen, idsOff, idsCount, options, first uint32) int32 {
	args = [len(args)]uint32{dataOff, dataLen, regOff, regLen, strOff, strLen, idsOff, idsCount, options}
	return build(v2)
}

// v2 is decode_v2's builder.
func v2() int32 {
	options := args[8]
	if code := checkOptions("decode_v2", options); code != 0 {
		return code
	}
	data, code := inRegion("decode_v2 data", args[0], args[1])
	if code != 0 {
		return code
	}
	var cs abi.V2
	if cs.RegInfo, code = inRegion("decode_v2 registration", args[2], args[3]); code != 0 {
		return code
	}
	if cs.Strings, code = inRegion("decode_v2 strings", args[4], args[5]); code != 0 {
		return code
	}
	if cs.IDs, code = counterIDs(args[6], args[7]); code != 0 {
		return code
	}
	return finish(builder.V2(data, &cs, engine.Options(options)))
}

// counterIDs reads count u32 counter ids at off of the input buffer.
func counterIDs(off, count uint32) ([]uint32, int32) {
	if int(count) > len(inBuf)/4 {
		return nil, boundsError("counter ids", off, count, len(inBuf))
	}
	b, code := inRegion("counter ids", off, count*4)
	return abi.ReadU32s(b), code
}

// decodeNames decodes the name table at inOff (n bytes):
// abi.Builder.Names.
//
//go:wasmexport decode_names
func decodeNames(inOff, n, first uint32) int32 {
	args = [len(args)]uint32{inOff, n}
	return build(names)
}

// names is decode_names's builder.
func names() int32 {
	table, code := optional("name table", args[0], args[1])
	if code != 0 {
		return code
	}
	return finish(builder.Names(table))
}

// logInput reads the arguments of decode_blg, relog_text, relog_stats and
// relog_columns: the log at inOff (n bytes), counter path patterns (UTF-8,
// one per line) at patOff (patLen bytes), the local time range [begin,
// end] (FILETIMEs, 0 = open) and every; max_columns' limit; and the
// translation of names_load's sources (names.go).
func logInput(inOff, n, patOff, patLen uint32, begin, end int64, every uint32) ([]byte, relog.Options, int32) {
	opts := relog.Options{Begin: begin, End: end, Every: int(every), MaxColumns: int(maxColumns), Identity: identityMode}
	if usePart {
		opts.PartFrom, opts.PartTo = int64(part[0]), int64(part[1])
	}
	data, code := inRegion("log", inOff, n)
	if code != 0 {
		return nil, opts, code
	}
	if opts.Counters, code = patterns(patOff, patLen); code != 0 {
		return data, opts, code
	}
	rename, err := renamer([][]byte{data}) // names_load's sources, if any
	if err != nil {
		return data, opts, fail(abi.CodeOf(err), err)
	}
	opts.Rename = rename
	return data, opts, 0
}

// patterns reads counter path patterns at off (n bytes): abi.ParsePatterns.
func patterns(off, n uint32) ([]counterpath.Path, int32) {
	text, code := inRegion("counter patterns", off, n)
	if code != 0 {
		return nil, code
	}
	ps, err := abi.ParsePatterns(text)
	if err != nil {
		return nil, fail(abi.CodeInput, err)
	}
	return ps, 0
}

// decodeLog runs m, a Builder method over a .blg log, on the log at inOff
// (n bytes) with the selection of logInput: the body of decode_blg,
// relog_stats and relog_columns.
func decodeLog(inOff, n, patOff, patLen uint32, begin, end int64, every uint32, m func(*abi.Builder, []byte, relog.Options) error, withPart bool) int32 {
	usePart = withPart
	args, span, method = [len(args)]uint32{inOff, n, patOff, patLen, every}, [2]int64{begin, end}, m
	return build(logs)
}

// logs is the builder of decode_blg, relog_stats and relog_columns.
func logs() int32 {
	data, opts, code := logInput(args[0], args[1], args[2], args[3], span[0], span[1], args[4])
	if code != 0 {
		return code
	}
	err := method(&builder, data, opts)
	identityBreaks = builder.Breaks
	return finish(err)
}

// decodeBlg converts the .blg log at inOff (n bytes) as relog does, with
// the selection of logInput: abi.Builder.Blg.
//
//go:wasmexport decode_blg
func decodeBlg(inOff, n, patOff, patLen uint32, begin, end int64, every, first uint32) int32 {
	return decodeLog(inOff, n, patOff, patLen, begin, end, every, (*abi.Builder).Blg, true)
}

// relogStats computes the statistics of every column of the .blg log at
// inOff (n bytes), as perfcalc stats does, with the selection of logInput:
// abi.Builder.Stats; with the flag abi.StatsPercentiles,
// abi.Builder.StatsPercentiles. Other flags are refused (CodeArgument).
//
//go:wasmexport relog_stats
func relogStats(inOff, n, patOff, patLen uint32, begin, end int64, every, flags uint32) int32 {
	if flags&^abi.StatsPercentiles != 0 {
		return build(badStatsFlags)
	}
	if flags != 0 {
		return decodeLog(inOff, n, patOff, patLen, begin, end, every, (*abi.Builder).StatsPercentiles, false)
	}
	return decodeLog(inOff, n, patOff, patLen, begin, end, every, (*abi.Builder).Stats, false)
}

// badStatsFlags refuses relog_stats' reserved flags.
func badStatsFlags() int32 { return fail(abi.CodeArgument, abi.ErrStatsFlags) }

// relogColumns lists the columns of the .blg log at inOff (n bytes), as
// relog -q does, with the selection of logInput, without computing a
// value: abi.Builder.LogColumns.
//
//go:wasmexport relog_columns
func relogColumns(inOff, n, patOff, patLen uint32, begin, end int64, every, first uint32) int32 {
	return decodeLog(inOff, n, patOff, patLen, begin, end, every, (*abi.Builder).LogColumns, false)
}

// sniff tells what the n bytes at inOff of the input buffer are:
// abi.Sniff's kind (KindV1, KindV2, KindBlg, KindNames) or 0. A host can
// give a prefix of a file (a few KiB tell V1, .blg and name tables apart;
// V2 needs the whole result).
//
//go:wasmexport sniff
func sniff(inOff, n uint32) (rc int32) {
	defer recovered(&rc)
	clearError()
	data, code := inRegion("sniff input", inOff, n)
	if code != 0 {
		return code
	}
	return int32(abi.Sniff(data))
}

// relogText writes relog's text of the .blg log at inOff (n bytes) into the
// output buffer, in format (abi.Format…), with the selection of logInput:
// abi.RelogText. It returns the bytes written; a text longer than the
// buffer comes in pages (CodeSpace, last_detail = the cursor of
// decode_next). After a non-negative result, err_len > 0 means the log is
// damaged after the rows written, and err_ptr holds why; last_detail is the
// number of events that the log's first reading skipped (a damaged event
// header may have taken a sample with it).
//
//go:wasmexport relog_text
func relogText(inOff, n, patOff, patLen uint32, begin, end int64, every, format uint32) int32 {
	args, span, usePart = [len(args)]uint32{inOff, n, patOff, patLen, every, format}, [2]int64{begin, end}, true
	return build(relogTextJob)
}

// relogTextJob is relog_text's builder.
func relogTextJob() int32 {
	data, opts, code := logInput(args[0], args[1], args[2], args[3], span[0], span[1], args[4])
	if code != 0 {
		return code
	}
	var tw textWriter
	skipped, breaks, damage, err := abi.RelogText(&tw, data, opts, args[5])
	identityBreaks = breaks
	rc := tw.finish(damage, err)
	if rc >= 0 {
		lastDetail = uint32(skipped) // fewer than 2^32: each takes bytes of the log
	}
	return rc
}

// part is the part of a log whose rows decode_blg and relog_text give
// (relog.Options.PartFrom, PartTo): log_part sets it; usePart tells
// logInput whether the current export is one of those two.
var (
	part    [2]uint32
	usePart bool
)

// logPart makes decode_blg and relog_text give only the rows of the kept
// samples whose records begin at the log's byte offsets from to to − 1
// (to 0: to the log's end), as the whole log's reading gives them; 0, 0
// gives every row (relog.Options.PartFrom, PartTo).
//
//go:wasmexport log_part
func logPart(from, to uint32) { part = [2]uint32{from, to} }

// maxColumns is the most columns of a log that the log exports accept
// (relog.Options.MaxColumns; 0: no limit): max_columns sets it.
var maxColumns uint32 = abi.DefaultMaxColumns

// setMaxColumns sets the most columns (counters of distinct instances) of a
// log that decode_blg, relog_text, relog_stats and relog_columns accept
// from now on, n (0: no limit; abi.DefaultMaxColumns until set, as
// perfcalc's --max-columns): a log of more is refused with CodeLimit
// before its columns take memory.
//
//go:wasmexport max_columns
func setMaxColumns(n uint32) { maxColumns = n }

// identityMode is how the log exports and query pair instances
// (relog.Options.Identity, query.Config.Identity): identity sets it.
var identityMode identity.Mode

// setIdentity sets how decode_blg, relog_text, relog_stats, relog_columns,
// query and query_text pair instances from one sample to the next from
// now on, as perfcalc --identity: abi.IdentityPDH (by name, until set) or
// abi.IdentityPID (by process and thread ID). Another mode is refused
// with CodeArgument, and the mode stays.
//
//go:wasmexport identity
func setIdentity(mode uint32) int32 {
	clearError()
	m, ok := abi.IdentityMode(mode)
	if !ok {
		return refuse("perfcalc: identity: unknown mode (want 0, pdh, or 1, pid)")
	}
	identityMode = m
	return 0
}

// identityBreaksExport returns the identity breaks that the last log
// export, query or query_text met with abi.IdentityPID (after its result's
// last page; relog.Converter.IdentityBreaks), 0 with abi.IdentityPDH.
//
//go:wasmexport identity_breaks
func identityBreaksExport() int64 { return identityBreaks }

// queryParts names the regions of the query descriptor, in the order of
// its fields (abi.Query…), for bounds errors.
var queryParts = [abi.QuerySize / 8]string{
	abi.QueryOlder / 8: "query older capture", abi.QueryNewer / 8: "query newer capture",
	abi.QueryNames / 8: "name table", abi.QueryRegInfo / 8: "query registration",
	abi.QueryStrings / 8: "query strings", abi.QueryIDs / 8: "counter ids",
	abi.QuerySet / 8: "query counterset name", abi.QueryPaths / 8: "counter patterns",
}

// queryInput reads the arguments of query and query_text (op) into q: the
// QuerySize-byte descriptor at descOff of the input buffer, whose regions
// (abi.Query…) hold the captures and what pairs them, and the options. It
// returns the captures.
func queryInput(op string, descOff, options uint32, q *abi.Query) (older, newer []byte, code int32) {
	if code := checkOptions(op, options); code != 0 {
		return nil, nil, code
	}
	desc, code := inRegion("query descriptor", descOff, abi.QuerySize)
	if code != 0 {
		return nil, nil, code
	}
	var parts [len(queryParts)][]byte
	for i := range parts {
		off, n := abi.ReadRegion(desc, 8*i)
		if parts[i], code = inRegion(queryParts[i], off, n); code != 0 {
			return nil, nil, code
		}
	}
	ids := parts[abi.QueryIDs/8]
	if len(ids)%4 != 0 {
		return nil, nil, refuse("perfcalc: " + op + ": the counter ids' length is not a multiple of 4")
	}
	*q = abi.Query{
		Names: parts[abi.QueryNames/8], RegInfo: parts[abi.QueryRegInfo/8], Strings: parts[abi.QueryStrings/8],
		IDs: abi.ReadU32s(ids), CounterSet: string(parts[abi.QuerySet/8]), Options: engine.Options(options),
		Identity: identityMode,
	}
	var err error
	if q.Paths, err = abi.ParsePatterns(parts[abi.QueryPaths/8]); err != nil {
		return nil, nil, fail(abi.CodeInput, err)
	}
	return parts[abi.QueryOlder/8], parts[abi.QueryNewer/8], 0
}

// runQuery computes every selected counter between two captures, whose
// inputs the QuerySize-byte descriptor at descOff of the input buffer names
// (abi.Query…): abi.Builder.Query.
//
//go:wasmexport query
func runQuery(descOff, options, first uint32) int32 {
	args = [len(args)]uint32{descOff, options}
	return build(queryBuilder)
}

// queryBuilder is query's builder.
func queryBuilder() int32 {
	var q abi.Query
	older, newer, code := queryInput("query", args[0], args[1], &q)
	if code != 0 {
		return code
	}
	err := builder.Query(older, newer, &q)
	identityBreaks = builder.Breaks
	return finish(err)
}

// queryText writes relog's CSV or TSV of every selected counter between two
// captures (the descriptor of query) into the output buffer, in format
// (abi.FormatCSV or FormatTSV, digits in bits 8 to 15): abi.QueryText, what
// perfcalc values -f csv writes. It returns the bytes written; a text
// longer than the buffer comes in pages, as relog_text's.
//
//go:wasmexport query_text
func queryText(descOff, options, format uint32) int32 {
	args = [len(args)]uint32{descOff, options, format}
	return build(queryTextJob)
}

// queryTextJob is query_text's builder.
func queryTextJob() int32 {
	var q abi.Query
	older, newer, code := queryInput("query_text", args[0], args[1], &q)
	if code != 0 {
		return code
	}
	var tw textWriter
	err := abi.QueryText(&tw, older, newer, &q, args[2])
	identityBreaks = int64(q.Breaks)
	return tw.finish(nil, err)
}
