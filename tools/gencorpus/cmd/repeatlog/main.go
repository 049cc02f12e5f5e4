// Command repeatlog writes a large .blg log made from a real one
// (gencorpus.RepeatedLog: its body repeated, time stamps increasing), for
// benchmarks of other languages and tools:
//
//	go run ./tools/gencorpus/cmd/repeatlog -n 160 -o tx160.blg ../shared/corpus/blg/Tx_BasicPerfCounters.blg
//
// The real Tx log repeated 160 times is the 42 MB log of the benchmarks.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

func main() {
	n := flag.Int64("n", 160, "copies of the log's body")
	out := flag.String("o", "", "the log to write")
	flag.Parse()
	if flag.NArg() != 1 || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: repeatlog -n COPIES -o OUT.blg IN.blg")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *out, *n); err != nil {
		fmt.Fprintln(os.Stderr, "repeatlog:", err)
		os.Exit(1)
	}
}

func run(in, out string, n int64) error {
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	l, err := gencorpus.NewRepeatedLog(src, n)
	if err != nil {
		return err
	}
	return os.WriteFile(out, l.Bytes(), 0o644)
}
