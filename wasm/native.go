//go:build !wasip1

package main

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/internal/abi"
	"github.com/perfcalc/perfcalc/internal/gencorpus"
)

// main, in the native build only, runs the decode exports on files and
// prints every record as one JSON object per line: the reference that the
// hosts' tests compare the WebAssembly module with (the same Go code,
// compiled natively).
//
//	go run ./wasm v1 BLOB [NAMETABLE]
//	go run ./wasm names NAMETABLE
//	go run ./wasm blg LOG
//	go run ./wasm v2 DATA REGINFO [STRINGS]
//	go run ./wasm query OLDER NEWER [NAMETABLE]   (V1 captures)
//	go run ./wasm query2 OLDER NEWER REGINFO STRINGS   (V2 captures)
//	go run ./wasm v2fixture DIR   (writes reg, strings, older and newer V2 captures)
//	go run ./wasm relog csv|tsv|json LOG
//
// The WebAssembly build's main (main_wasip1.go) is empty and never runs.
func main() {
	os.Exit(run(os.Args[1:]))
}

// run is main without the exit.
func run(args []string) int {
	if len(args) < 2 {
		os.Stderr.WriteString("usage: wasm v1 BLOB [NAMETABLE] | v2 DATA REGINFO [STRINGS] | names NAMETABLE | blg LOG | query OLDER NEWER [NAMETABLE] | query2 OLDER NEWER REGINFO STRINGS | relog csv|tsv|json LOG | v2fixture DIR\n")
		return 2
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	load := func(off int, name string) (uint32, bool) {
		b, err := os.ReadFile(name)
		if err != nil || off+len(b) > abi.MaxReserve {
			os.Stderr.WriteString("wasm: cannot load " + name + "\n")
			return 0, false
		}
		if off+len(b) > len(inBuf) { // grow, keeping what is loaded
			keep := inBuf[:off]
			inReserve(uint32(off + len(b)))
			copy(inBuf, keep)
		}
		return uint32(copy(inBuf[off:], b)), true
	}
	// describe loads files after a query descriptor at offset 0 that names
	// them in the fields given.
	describe := func(fields []int, files []string) bool {
		at := uint32(abi.QuerySize)
		clear(inBuf[:abi.QuerySize])
		for i, name := range files {
			n, ok := load(int(at), name)
			if !ok {
				return false
			}
			abi.PutRegion(inBuf, fields[i], at, n)
			at = (at + n + 7) &^ 7
		}
		return true
	}
	var call func(first uint32) int32
	switch args[0] {
	case "v1":
		n, ok := load(0, args[1])
		if !ok {
			return 1
		}
		var nn uint32
		if len(args) > 2 {
			if nn, ok = load(int(n), args[2]); !ok {
				return 1
			}
		}
		call = func(first uint32) int32 { return decodeV1(0, n, n, nn, 0, first) }
	case "v2":
		if len(args) < 3 {
			return 2
		}
		var offs, lens [3]uint32
		at := uint32(0)
		for i, name := range args[1:min(len(args), 4)] {
			n, ok := load(int(at), name)
			if !ok {
				return 1
			}
			offs[i], lens[i] = at, n
			at = (at + n + 7) &^ 7
		}
		call = func(first uint32) int32 {
			return decodeV2(offs[0], lens[0], offs[1], lens[1], offs[2], lens[2], 0, 0, 0, first)
		}
	case "query2":
		if len(args) < 5 {
			return 2
		}
		if !describe([]int{abi.QueryOlder, abi.QueryNewer, abi.QueryRegInfo, abi.QueryStrings}, args[1:5]) {
			return 1
		}
		call = func(first uint32) int32 { return runQuery(0, 0, first) }
	case "v2fixture":
		reg, strs, older, newer, err := gencorpus.SmallV2()
		if err != nil {
			os.Stderr.WriteString("wasm: " + err.Error() + "\n")
			return 1
		}
		for name, b := range map[string][]byte{"reg.bin": reg, "strings.bin": strs, "older.bin": older, "newer.bin": newer} {
			if err := os.WriteFile(filepath.Join(args[1], name), b, 0o644); err != nil {
				os.Stderr.WriteString("wasm: " + err.Error() + "\n")
				return 1
			}
		}
		return 0
	case "names":
		n, ok := load(0, args[1])
		if !ok {
			return 1
		}
		call = func(first uint32) int32 { return decodeNames(0, n, first) }
	case "blg":
		n, ok := load(0, args[1])
		if !ok {
			return 1
		}
		call = func(first uint32) int32 { return decodeBlg(0, n, 0, 0, 0, 0, 0, first) }
	case "query":
		if len(args) < 3 {
			return 2
		}
		if !describe([]int{abi.QueryOlder, abi.QueryNewer, abi.QueryNames}, args[1:min(len(args), 4)]) {
			return 1
		}
		call = func(first uint32) int32 { return runQuery(0, 0, first) }
	case "relog":
		if len(args) < 3 {
			return 2
		}
		format := map[string]uint32{"csv": 0, "tsv": 1, "json": 2}[args[1]]
		n, ok := load(0, args[2])
		if !ok {
			return 1
		}
		rc := relogText(0, n, 0, 0, 0, 0, 0, format)
		if rc < 0 {
			os.Stderr.WriteString("wasm: " + string(errBuf[:errLen]) + "\n")
			return 1
		}
		w.Write(outBuf[:rc])
		return 0
	default:
		os.Stderr.WriteString("wasm: unknown command " + args[0] + "\n")
		return 2
	}
	for rc := call(0); ; {
		if rc < 0 && rc != abi.CodeSpace {
			os.Stderr.WriteString("wasm: error " + strconv.Itoa(int(rc)) + ": " + string(errBuf[:errLen]) + "\n")
			return 1
		}
		h := abi.ReadHeader(outBuf)
		for i := 0; i < int(h.Count); i++ {
			r := outBuf[int(h.RecOff)+i*int(h.RecSize):]
			off, n := abi.RecordPath(r)
			rec := abi.ReadRecord(r)
			w.Write(appendRecordJSON(nil, &rec, string(outBuf[h.StrOff+off:h.StrOff+off+n])))
			w.WriteByte('\n')
		}
		if h.Flags&abi.FlagDamaged != 0 {
			os.Stderr.WriteString("wasm: damaged: " + string(errBuf[:errLen]) + "\n")
		}
		if h.Flags&abi.FlagMore == 0 {
			return 0
		}
		if h.Count == 0 {
			os.Stderr.WriteString("wasm: a record does not fit the output buffer\n")
			return 1
		}
		rc = decodeNext(h.Cursor)
	}
}

// appendRecordJSON appends a record as JSON; integers of 64 bits are
// strings, and "bits" is the value's float64 bit pattern in hexadecimal.
func appendRecordJSON(b []byte, r *abi.Record, path string) []byte {
	b = append(b, `{"path":`...)
	b = strconv.AppendQuote(b, path)
	b = append(b, `,"value":`...)
	b = engine.AppendFloat(b, r.Value, engine.ShortestDigits)
	b = append(b, `,"bits":"`...)
	b = strconv.AppendUint(b, math.Float64bits(r.Value), 16)
	b = append(b, `","status":`...)
	b = strconv.AppendUint(b, uint64(r.Status), 10)
	b = append(b, `,"type":`...)
	b = strconv.AppendUint(b, uint64(r.Type), 10)
	b = append(b, `,"first":"`...)
	b = strconv.AppendUint(b, r.Raw.FirstValue, 10)
	b = append(b, `","second":"`...)
	b = strconv.AppendUint(b, r.Raw.SecondValue, 10)
	b = append(b, `","multi":`...)
	b = strconv.AppendUint(b, uint64(r.Raw.MultiCount), 10)
	b = append(b, `,"cstatus":`...)
	b = strconv.AppendUint(b, uint64(r.Raw.CStatus), 10)
	b = append(b, `,"timebase":"`...)
	b = strconv.AppendInt(b, r.TimeBase, 10)
	b = append(b, `","time":"`...)
	b = strconv.AppendInt(b, r.Time, 10)
	b = append(b, `","scale":`...)
	b = strconv.AppendInt(b, int64(r.Scale), 10)
	b = append(b, `,"aux":`...)
	b = strconv.AppendUint(b, uint64(r.Aux), 10)
	b = append(b, `,"column":`...)
	b = strconv.AppendUint(b, uint64(r.Column), 10)
	return append(b, '}')
}
