package main

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// TestRelogBinCSV: for every real log, alone and merged, with and without
// -c, -b/-e and -t, the CSV of "relog ARGS -f bin -o Y.blg" read back
// ("relog Y.blg -f csv") is the CSV of "relog ARGS -f csv", byte for byte.
func TestRelogBinCSV(t *testing.T) {
	dir := corpus.Shared(t, "blg")
	const tx, ps, pal = "Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg", "PAL_SamplePerfmonLog.blg"
	for _, args := range [][]string{
		{tx},
		{ps},
		{pal},
		{tx, "-c", `\\*\Processor(*)\% Processor Time`},
		{tx, "-c", `\Processor(1)\*`, "-c", `\PhysicalDisk(*)\Avg. Disk Bytes/Read`},
		{tx, "-b", "02/19/2013 18:55:15", "-e", "02/19/2013 19:10:00"},
		{tx, "-t", "7"},
		{tx, "-t", "3", "-b", "02/19/2013 18:55:15", "-c", `\Processor(*)\*`},
		{ps, "-c", `\Processor(_Total)\*`, "-t", "2"},
		{ps, "-b", "07/02/2007 18:00:00"},
		{pal, "-c", `\Processor(*)\*`, "-c", `\Memory\*`},
		{pal, "-t", "5", "-e", "08/14/2007 15:45:00"},
		{tx, ps},
		{tx, pal, "-c", `\Processor(*)\*`, "-c", `\Memory\*`},
		{ps, tx, "-t", "4"},
		{tx, tx},
	} {
		name := strings.Join(args, " ")
		t.Run(name, func(t *testing.T) {
			var full []string
			for _, a := range args {
				if strings.HasSuffix(a, ".blg") {
					a = filepath.Join(dir, a)
				}
				full = append(full, a)
			}
			code, want, errs := runCmd(t, "", append(append([]string{"relog"}, full...), "-f", "csv")...)
			if code != exitOK || errs != "" {
				t.Fatalf("-f csv: exit %d, stderr %q", code, errs)
			}
			out := filepath.Join(t.TempDir(), "y.blg")
			// -o Y.blg picks -f bin.
			if code, _, errs := runCmd(t, "", append(append([]string{"relog"}, full...), "-o", out)...); code != exitOK || errs != "" {
				t.Fatalf("-o Y.blg: exit %d, stderr %q", code, errs)
			}
			code, have, errs := runCmd(t, "", "relog", out, "-f", "csv")
			if code != exitOK || errs != "" {
				t.Fatalf("relog Y.blg: exit %d, stderr %q", code, errs)
			}
			if have != want {
				t.Errorf("relog Y.blg -f csv differs from relog %s -f csv:\nhave %.300q\nwant %.300q", name, have, want)
			}
		})
	}
}

// TestRelogBinIdentity: "relog X.blg -f bin -o Y.blg" of a real raw-counter
// log gives X's bytes but for the fields that say when and by what a log
// was written (doc/FORMATS.md §5.1): the WMI buffer headers but for their
// BufferSize and Offset, the system trace header's version, thread and
// process ids and TRACE_LOGFILE_HEADER's two name pointers, the events'
// thread and process ids and processor times, the counter list's time
// stamp.
func TestRelogBinIdentity(t *testing.T) {
	for _, name := range []string{"Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg"} {
		t.Run(name, func(t *testing.T) {
			path, in := readShared(t, name)
			out := filepath.Join(t.TempDir(), "y.blg")
			if code, _, errs := runCmd(t, "", "relog", path, "-f", "bin", "-o", out); code != exitOK || errs != "" {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			have, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if len(have) != len(in) {
				t.Fatalf("have %d bytes, want %d", len(have), len(in))
			}
			a, b := maskWritten(in), maskWritten(have)
			for i := range a {
				if a[i] != b[i] {
					t.Fatalf("byte %#x: have %#x, want %#x", i, have[i], in[i])
				}
			}
			if bytes.Equal(have, in) {
				t.Fatal("the bytes are all equal: the thread ids should differ")
			}
		})
	}
}

// maskWritten returns a copy of a log (64 KiB buffers) with the fields
// that say when and by what it was written zeroed.
func maskWritten(log []byte) []byte {
	b := bytes.Clone(log)
	le := binary.LittleEndian
	for base := 0; base+blg.BufferHeaderSize <= len(b); base += 1 << 16 {
		used := int(le.Uint32(b[base+0x30:]))
		clear(b[base+0x04 : base+0x30])
		clear(b[base+0x34 : base+blg.BufferHeaderSize])
		for q := blg.BufferHeaderSize; q < used; {
			ev := b[base+q:]
			var size int
			if ev[2] == 1 || ev[2] == 2 { // the system trace header
				size = int(le.Uint16(ev[4:]))
				clear(ev[0:2])
				clear(ev[8:16])
				clear(ev[32+56 : 32+56+8*int(ev[2])])
			} else {
				size = int(le.Uint16(ev[0:]))
				clear(ev[8:16])
				clear(ev[40:48])
				if ev[4] == blg.EventCounterList {
					clear(ev[16:24])
				}
			}
			q += (size + 7) &^ 7
		}
	}
	return b
}

// TestRelogBinDamage: a damaged log converts to a .blg up to the damage;
// the command fails and -o FILE is left as it was, --keep-partial keeps
// a log of the samples before the damage.
func TestRelogBinDamage(t *testing.T) {
	_, in := readShared(t, "Tx_BasicPerfCounters.blg")
	dir := t.TempDir()
	cut := filepath.Join(dir, "cut.blg")
	if err := os.WriteFile(cut, in[:3<<16+1000], 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "y.blg")
	if err := os.WriteFile(out, []byte("before"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCmd(t, "", "relog", cut, "-o", out)
	if code == exitOK || !strings.Contains(errs, "cut.blg") {
		t.Fatalf("exit %d, stderr %q; want a failure naming the log", code, errs)
	}
	if b, _ := os.ReadFile(out); string(b) != "before" {
		t.Fatalf("-o FILE changed: %q", b)
	}
	code, _, _ = runCmd(t, "", "relog", cut, "-o", out, "--keep-partial")
	if code == exitOK {
		t.Fatal("--keep-partial: exit 0")
	}
	_, want, _ := runCmd(t, "", "relog", cut, "-f", "csv")
	code, have, errs := runCmd(t, "", "relog", out+".partial", "-f", "csv")
	if code != exitOK || errs != "" || have != want || len(have) < 1000 {
		t.Fatalf("the partial log: exit %d, stderr %q, %d bytes of CSV; want the %d bytes before the damage", code, errs, len(have), len(want))
	}
}

// TestRelogBinInstanceIndexNames: instances whose names literally end in
// "#" and digits that PDH's numbering of duplicates never writes (h#0,
// h#00, h#01) keep their names through -f bin: merged logs (one
// counter-list entry per column) read back as the merged CSV, byte for
// byte. h#0 and h#00 were written as h, h#01 as h#1, colliding with the
// real h and h#1 (issue 32, item 18).
func TestRelogBinInstanceIndexNames(t *testing.T) {
	dir := t.TempDir()
	multi := putFile(t, filepath.Join(dir, "multi.blg"), instancesLog(3, "h", "h#0", "h#00", "h#01", "h#1", "h", "p/h#0", "p/h#007"))
	single := putFile(t, filepath.Join(dir, "single.blg"), tinyLog(3, "h", "h#0", "h#00", "h#01"))
	check := func(t *testing.T, args ...string) {
		t.Helper()
		code, want, errs := runCmd(t, "", append(append([]string{"relog"}, args...), "-f", "csv")...)
		if code != exitOK || errs != "" {
			t.Fatalf("%q -f csv: exit %d, %q", args, code, errs)
		}
		if !strings.Contains(want, `(h#00)`) {
			t.Fatalf("%q: the CSV has no h#00: %.300q", args, want)
		}
		out := filepath.Join(t.TempDir(), "y.blg")
		if code, _, errs := runCmd(t, "", append(append([]string{"relog"}, args...), "-o", out)...); code != exitOK || errs != "" {
			t.Fatalf("%q -o Y.blg: exit %d, %q", args, code, errs)
		}
		if _, have, _ := runCmd(t, "", "relog", out); have != want {
			t.Errorf("%q: relog Y.blg differs from -f csv:\nhave %.400q\nwant %.400q", args, have, want)
		}
	}
	check(t, multi, single)
	check(t, single, multi)
	check(t, multi, "-c", `\Process(h#0*)\*`)
	t.Run("real", func(t *testing.T) { // a real log merged with them
		tx := filepath.Join(corpus.Shared(t, "blg"), "Tx_BasicPerfCounters.blg")
		check(t, tx, multi, "-c", `\Processor(*)\% Processor Time`, "-c", `\Process(*)\*`)
		check(t, tx, single, multi)
	})
}

// runToPipe runs perfcalc with standard output a pipe (as in "perfcalc
// ... | next"), and returns the exit status, the bytes written to the
// pipe and standard error.
func runToPipe(t *testing.T, args ...string) (int, []byte, string) {
	t.Helper()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	read := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(pr)
		pr.Close()
		read <- b
	}()
	var errb bytes.Buffer
	code := run(args, strings.NewReader(""), pw, &errb)
	pw.Close()
	return code, <-read, errb.String()
}

// TestRelogBinToPipe: relog -f bin -o - to a pipe, which cannot seek back
// to the log header, exits 0 with the header's EndTime and
// BuffersWritten left 0 as in a real-time log, and the bytes read back as
// the log written to a file does; it used to exit 1 ("illegal seek")
// after writing the whole log (issue 32, item 17). So does watch -f bin
// to a pipe, which shares the writer.
func TestRelogBinToPipe(t *testing.T) {
	dir := t.TempDir()
	n := 0
	check := func(t *testing.T, args ...string) {
		t.Helper()
		n++
		file := filepath.Join(dir, "file"+strconv.Itoa(n)+".blg")
		if code, _, errs := runCmd(t, "", append(append([]string{"relog"}, args...), "-o", file)...); code != exitOK {
			t.Fatalf("%q -o FILE: exit %d, %s", args, code, errs)
		}
		code, piped, errs := runToPipe(t, append(append([]string{"relog"}, args...), "-f", "bin", "-o", "-")...)
		if code != exitOK || errs != "" {
			t.Errorf("%q -f bin -o - | ...: exit %d, %q; want 0 and nothing", args, code, errs)
		}
		written, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		const endTime, buffersWritten = 0x78, 0x8C // doc/FORMATS.md §5.1
		if len(piped) != len(written) || len(piped) < 0x90 || binary.LittleEndian.Uint64(piped[endTime:]) != 0 || binary.LittleEndian.Uint32(piped[buffersWritten:]) != 0 {
			t.Fatalf("%q: the pipe has %d bytes (the file %d); want as many, EndTime and BuffersWritten 0", args, len(piped), len(written))
		}
		_, want, _ := runCmd(t, "", "relog", file)
		if code, have, errs := runCmd(t, "", "relog", putFile(t, filepath.Join(dir, "piped.blg"), piped)); code != exitOK || have != want {
			t.Errorf("%q: the piped log reads otherwise than the file (exit %d, %s):\nhave %.300q\nwant %.300q", args, code, errs, have, want)
		}
		// Standard output a file that holds other bytes before the log
		// ({ echo; perfcalc relog ... -o -; } > f): the header is set at
		// the log's offset, the bytes before it left as they were (the
		// header's fields were written over them).
		prefix := []byte("bytes before the log\n")
		f, err := os.Create(filepath.Join(dir, "stdout"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		f.Write(prefix)
		var errb bytes.Buffer
		if code := run(append(append([]string{"relog"}, args...), "-f", "bin"), strings.NewReader(""), f, &errb); code != exitOK {
			t.Fatalf("%q -f bin > FILE after other bytes: exit %d, %s", args, code, errb.String())
		}
		if have, _ := os.ReadFile(f.Name()); !bytes.Equal(have, append(prefix, written...)) {
			t.Errorf("%q -f bin > FILE after %d bytes: %d bytes, not the bytes and the log written to a file", args, len(prefix), len(have))
		}
		// Standard output a file opened to append (>> FILE): streamed, as
		// to a pipe (it failed: "invalid use of WriteAt on file opened
		// with O_APPEND").
		a, err := os.OpenFile(filepath.Join(dir, "append"), os.O_CREATE|os.O_TRUNC|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		a.Write(prefix)
		errb.Reset()
		if code := run(append(append([]string{"relog"}, args...), "-f", "bin"), strings.NewReader(""), a, &errb); code != exitOK {
			t.Errorf("%q -f bin >> FILE: exit %d, %s", args, code, errb.String())
		}
		if have, _ := os.ReadFile(a.Name()); !bytes.Equal(have, append(prefix, piped...)) {
			t.Errorf("%q -f bin >> FILE after %d bytes: %d bytes, not the bytes and the streamed log", args, len(prefix), len(have))
		}
	}
	check(t, putFile(t, filepath.Join(dir, "multi.blg"), instancesLog(30, "a", "b", "a")))
	t.Run("real", func(t *testing.T) {
		c := corpus.Shared(t, "blg")
		check(t, filepath.Join(c, "Tx_BasicPerfCounters.blg"))
		check(t, filepath.Join(c, "Tx_BasicPerfCounters.blg"), filepath.Join(c, "PAL_SamplePerfmonLog.blg"), "-c", `\Processor(*)\*`)
	})
	t.Run("watch", func(t *testing.T) {
		replayWatch(t)
		for _, out := range [][]string{nil, {"-o", "-"}} {
			args := append([]string{"watch", "-c", `\Processor(*)\*`, "-sc", "3", "-si", "1ms", "-f", "bin"}, out...)
			code, piped, errs := runToPipe(t, args...)
			if code != exitOK || len(piped) != 4*watchBufferSize {
				t.Fatalf("%q | ...: exit %d, %d bytes, %q; want 0 and %d bytes", args, code, len(piped), errs, 4*watchBufferSize)
			}
			code, csv, errs := runCmd(t, "", "relog", putFile(t, filepath.Join(dir, "watch.blg"), piped))
			if rows := strings.Count(csv, "\r\n"); code != exitOK || rows != 1+3 {
				t.Errorf("relog of %q's piped log: exit %d, %d lines, %s", args, code, rows, errs)
			}
		}
		if _, err := os.Stat("-"); err == nil {
			os.Remove("-")
			t.Error(`watch -o - wrote a file named "-"`)
		}
	})
}

// TestRelogRedactInstanceIndexNames: --redact renames the machine of a
// path and keeps the rest of it as the log names it: the header of a log
// whose instances are named h#0, h#00 and h#01 is the unredacted one but
// for the machine (they were h, h and h#1; issue 32, item 18), and -f bin
// reads back to the redacted CSV.
func TestRelogRedactInstanceIndexNames(t *testing.T) {
	dir := t.TempDir()
	log := putFile(t, filepath.Join(dir, "multi.blg"), instancesLog(3, "h", "h#0", "h#00", "h#01", "p/h#0"))
	_, plain, _ := runCmd(t, "", "relog", log)
	code, red, errs := runCmd(t, "", "relog", log, "--redact")
	if want := strings.ReplaceAll(plain, `\\TINY\`, `\\MACHINE-1\`); code != exitOK || red != want {
		t.Errorf("relog --redact: exit %d %s\nhave %.300q\nwant %.300q", code, errs, red, want)
	}
	out := filepath.Join(dir, "red.blg")
	if code, _, errs := runCmd(t, "", "relog", log, "--redact", "-c", `\Process(h#0*)\*`, "-o", out); code != exitOK {
		t.Fatalf("relog --redact -o red.blg: exit %d %s", code, errs)
	}
	_, want, _ := runCmd(t, "", "relog", log, "--redact", "-c", `\Process(h#0*)\*`)
	if _, have, _ := runCmd(t, "", "relog", out); have != want || !strings.Contains(have, `\\MACHINE-1\Process(h#00)\Count`) {
		t.Errorf("relog red.blg:\nhave %.300q\nwant %.300q", have, want)
	}
}
