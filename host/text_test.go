package host

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/abi"
	"github.com/perfcalc/perfcalc/tools/corpus"
	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

// TestTextPages converts the real Tx log repeated (8 MB, within the static
// input buffer) into texts of up to three times the module's 4 MiB output
// buffer: the texts come in pages (decode_next), equal the native ones
// byte for byte, and the instance's output buffer stays the static one (no
// size is guessed or reserved). A log cut after its first quarters gives
// the rows before the cut and the native damage's text after the last
// page.
func TestTextPages(t *testing.T) {
	tx, err := os.ReadFile(filepath.Join(filepath.Dir(corpus.Root()), "shared", "corpus", "blg", "Tx_BasicPerfCounters.blg"))
	if err != nil {
		t.Skip("../shared/corpus is absent")
	}
	rl, err := gencorpus.NewRepeatedLog(tx, 30)
	if err != nil {
		t.Fatal(err)
	}
	log := rl.Bytes()
	e := faultEngine(t, NewConfig())
	if len(log) > abi.InCap {
		t.Fatalf("the log is %d bytes, more than the static input buffer", len(log))
	}
	first, err := e.get()
	if err != nil {
		t.Fatal(err)
	}
	e.put(first)
	for _, c := range []struct {
		log   []byte
		f     relog.Format
		pages int
	}{{log, relog.JSON, 3}, {log[:len(log)*3/4], relog.JSON, 2}, {log, relog.CSV, 1}} {
		have, herr := e.RelogText(c.log, relog.Options{Digits: 17}, c.f)
		want, werr := Native{}.RelogText(c.log, relog.Options{Digits: 17}, c.f)
		if !bytes.Equal(have, want) || (herr == nil) != (werr == nil) || herr != nil && herr.Error() != werr.Error() {
			t.Errorf("format %d, %d bytes of log: host %d bytes (%v), native %d bytes (%v)", c.f, len(c.log), len(have), herr, len(want), werr)
		}
		if pages := (len(want) + abi.OutCap - 1) / abi.OutCap; pages != c.pages {
			t.Errorf("format %d: the text is %d bytes: %d pages of %d, want %d", c.f, len(want), pages, abi.OutCap, c.pages)
		}
		inst, err := e.get()
		if err != nil {
			t.Fatal(err)
		}
		if inst != first || inst.outCap != abi.OutCap {
			t.Errorf("format %d: the output buffer is %d bytes after the text (the same instance: %v), want the static %d", c.f, inst.outCap, inst == first, abi.OutCap)
		}
		e.put(inst)
		t.Logf("format %d: %d bytes of log, %d bytes of text, %d bytes of memory, damage %v", c.f, len(c.log), len(have), inst.mem.Size(), herr)
	}
}
