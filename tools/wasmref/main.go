// Command wasmref runs the WebAssembly module's record builders natively on
// files and prints every record as one JSON object per line: the reference
// that the hosts' tests compare the module with (the same Go code, package
// internal/abi, compiled natively). It is a test tool, not part of the
// module: the module's facade (package wasm) has no command line.
//
//	go run ./tools/wasmref v1 BLOB [NAMETABLE]
//	go run ./tools/wasmref names NAMETABLE
//	go run ./tools/wasmref blg LOG
//	go run ./tools/wasmref v2 DATA REGINFO [STRINGS]
//	go run ./tools/wasmref query OLDER NEWER [NAMETABLE]   (V1 captures)
//	go run ./tools/wasmref query2 OLDER NEWER REGINFO STRINGS   (V2 captures)
//	go run ./tools/wasmref v2fixture DIR   (writes reg, strings, older and newer V2 captures)
//	go run ./tools/wasmref relog csv|tsv|json LOG
//	go run ./tools/wasmref exitlog LOG OUT   (writes LOG with svchost#2 exiting at sample 5: the PAL variant of the --identity tests)
//	go run ./tools/wasmref identitylog OUT   (writes blgbuild.IdentityLog: Idle threads and svchost that share their IDs, for the --identity tests)
//
// Each command is the export of the same name (decode_v1, decode_names,
// decode_blg, decode_v2, query, relog_text) with options 0 and no
// selection. Records are written in one piece (the module returns them
// page by page; the pages' records are the same). Errors go to standard
// error, with the exit status 1 (2 for a usage error); the damage of a log
// after the records written is reported on standard error.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/abi"
	"github.com/perfcalc/perfcalc/tools/blgbuild"
	"github.com/perfcalc/perfcalc/tools/blgedit"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

const usage = "usage: wasmref v1 BLOB [NAMETABLE] | v2 DATA REGINFO [STRINGS] | names NAMETABLE | blg LOG | query OLDER NEWER [NAMETABLE] | query2 OLDER NEWER REGINFO STRINGS | relog csv|tsv|json LOG | v2fixture DIR | exitlog LOG OUT | identitylog OUT\n"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the exit, writing to stdout and stderr.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) < 2 {
		io.WriteString(stderr, usage)
		return 2
	}
	// files reads the files named, or reports the first it cannot read.
	files := func(names ...string) ([][]byte, bool) {
		out := make([][]byte, len(names))
		for i, name := range names {
			b, err := os.ReadFile(name)
			if err != nil {
				io.WriteString(stderr, "wasmref: cannot load "+name+": "+err.Error()+"\n")
				return nil, false
			}
			out[i] = b
		}
		return out, true
	}
	// opt returns the optional i-th file of in, nil when absent.
	opt := func(in [][]byte, i int) []byte {
		if i < len(in) {
			return in[i]
		}
		return nil
	}
	var build func(b *abi.Builder, in [][]byte) error
	want := 1 // files that the command needs, after its name
	upto := 1 // files that it takes
	switch args[0] {
	case "v1":
		upto = 2
		build = func(b *abi.Builder, in [][]byte) error { return b.V1(in[0], opt(in, 1), 0) }
	case "v2":
		want, upto = 2, 3
		build = func(b *abi.Builder, in [][]byte) error {
			return b.V2(in[0], &abi.V2{RegInfo: in[1], Strings: opt(in, 2)}, 0)
		}
	case "names":
		build = func(b *abi.Builder, in [][]byte) error { return b.Names(in[0]) }
	case "blg":
		build = func(b *abi.Builder, in [][]byte) error { return b.Blg(in[0], relog.Options{}) }
	case "query":
		want, upto = 2, 3
		build = func(b *abi.Builder, in [][]byte) error {
			return b.Query(in[0], in[1], &abi.Query{Names: opt(in, 2)})
		}
	case "query2":
		want, upto = 4, 4
		build = func(b *abi.Builder, in [][]byte) error {
			return b.Query(in[0], in[1], &abi.Query{RegInfo: in[2], Strings: in[3]})
		}
	case "v2fixture":
		return v2fixture(args[1], stderr)
	case "relog":
		return relogText(args[1:], stdout, stderr, files)
	case "exitlog":
		return exitLog(args[1:], stderr, files)
	case "identitylog":
		if len(args) != 2 {
			io.WriteString(stderr, usage)
			return 2
		}
		if err := os.WriteFile(args[1], blgbuild.IdentityLog(), 0o644); err != nil {
			io.WriteString(stderr, "wasmref: identitylog: "+err.Error()+"\n")
			return 1
		}
		return 0
	default:
		io.WriteString(stderr, "wasmref: unknown command "+args[0]+"\n"+usage)
		return 2
	}
	if len(args)-1 < want {
		io.WriteString(stderr, usage)
		return 2
	}
	in, ok := files(args[1:min(len(args), upto+1)]...)
	if !ok {
		return 1
	}
	b := abi.Builder{W: abi.NewGrowing()}
	if err := build(&b, in); err != nil {
		io.WriteString(stderr, "wasmref: error "+strconv.Itoa(int(abi.CodeOf(err)))+": "+err.Error()+"\n")
		return 1
	}
	b.W.Finish(&b.Summary)
	out := b.W.Bytes()
	h := abi.ReadHeader(out)
	w := bufio.NewWriter(stdout)
	for i := 0; i < int(h.Count); i++ {
		r := out[int(h.RecOff)+i*int(h.RecSize):]
		off, n := abi.RecordPath(r)
		rec := abi.ReadRecord(r)
		w.Write(appendRecordJSON(nil, &rec, string(out[h.StrOff+off:h.StrOff+off+n])))
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		io.WriteString(stderr, "wasmref: "+err.Error()+"\n")
		return 1
	}
	if b.Damage != nil {
		io.WriteString(stderr, "wasmref: damaged: "+b.Damage.Error()+"\n")
	}
	return 0
}

// exitLog writes the log args[0] with its process svchost#2 exiting at
// sample 5 (blgedit.ExitInstance) to args[1]: on the PAL sample log, the
// variant whose instances PDH renumbers, on which the hosts' tests compare
// --identity pid with the command.
func exitLog(args []string, stderr io.Writer, files func(...string) ([][]byte, bool)) int {
	if len(args) != 2 {
		io.WriteString(stderr, usage)
		return 2
	}
	in, ok := files(args[0])
	if !ok {
		return 1
	}
	v, changed, err := blgedit.ExitInstance(in[0], "Process", "svchost#2", 5)
	if err == nil && changed == 0 {
		err = errors.New("no sample changed: the log has no svchost#2 after sample 5")
	}
	if err == nil {
		err = os.WriteFile(args[1], v, 0o644)
	}
	if err != nil {
		io.WriteString(stderr, "wasmref: exitlog: "+err.Error()+"\n")
		return 1
	}
	return 0
}

// relogText writes relog_text's CSV, TSV or JSON of a log (args: the
// format and the log).
func relogText(args []string, stdout, stderr io.Writer, files func(...string) ([][]byte, bool)) int {
	format, ok := map[string]uint32{"csv": abi.FormatCSV, "tsv": abi.FormatTSV, "json": abi.FormatJSON}[args[0]]
	if !ok || len(args) < 2 {
		io.WriteString(stderr, usage)
		return 2
	}
	in, ok := files(args[1])
	if !ok {
		return 1
	}
	var text bytes.Buffer
	if _, _, _, err := abi.RelogText(&text, in[0], relog.Options{}, format); err != nil {
		io.WriteString(stderr, "wasmref: error "+strconv.Itoa(int(abi.CodeOf(err)))+": "+err.Error()+"\n")
		return 1
	}
	if _, err := stdout.Write(text.Bytes()); err != nil {
		io.WriteString(stderr, "wasmref: "+err.Error()+"\n")
		return 1
	}
	return 0
}

// v2fixture writes gencorpus.SmallV2's registration, strings and two
// captures into dir.
func v2fixture(dir string, stderr io.Writer) int {
	reg, strs, older, newer, err := gencorpus.SmallV2()
	if err != nil {
		io.WriteString(stderr, "wasmref: "+err.Error()+"\n")
		return 1
	}
	for name, b := range map[string][]byte{"reg.bin": reg, "strings.bin": strs, "older.bin": older, "newer.bin": newer} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			io.WriteString(stderr, "wasmref: "+err.Error()+"\n")
			return 1
		}
	}
	return 0
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
