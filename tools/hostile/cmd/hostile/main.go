// Command hostile writes the hostile inputs of issue 12 at the size of the
// attack, for measurements:
//
//	go run ./tools/hostile/cmd/hostile -o DIR
//
// long-instances.bin (40 instance names of 30,000 characters, 2.4 MB),
// capped-instances.bin (40 names of 1,024 characters, the most Windows allows),
// pattern.txt (a 1 KB -c pattern that almost matches them),
// counter-list.blg (60 MB: 394,736 counter-list entries, no sample),
// names-1e6.multisz (a name table of 10^6 pairs),
// new-instances.blg (4 wildcard counters, 2,500 samples that each bring 40
// new instances: 400,000 columns in 12 MB).
package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"

	"github.com/perfcalc/perfcalc/tools/hostile"
)

func main() {
	dir := flag.String("o", ".", "folder to write the files into")
	flag.Parse()
	blob, err := hostile.LongInstancesV1(40, 30_000)
	if err != nil {
		log.Fatal(err)
	}
	capped, err := hostile.LongInstancesV1(40, 1024)
	if err != nil {
		log.Fatal(err)
	}
	names, err := hostile.NameTable(1_000_000)
	if err != nil {
		log.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"long-instances.bin":   blob,
		"capped-instances.bin": capped,
		"pattern.txt":          []byte(`\#230(` + hostile.NearMissPattern(1000) + `)\*`),
		"counter-list.blg":     hostile.CounterListLog(394_736),
		"names-1e6.multisz":    names,
		"new-instances.blg":    hostile.NewInstancesLog(4, 2500, 40),
	} {
		if err := os.WriteFile(filepath.Join(*dir, name), data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
