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
// new instances: 400,000 columns in 12 MB); and issue 32's threshold
// files: questions-40000.xml, questions-2000x20000.xml (2,000 questions,
// 20,000 analyses), trim-4MiB-9000.xml (a 4 MiB question default, 9,000
// .Trim() calls), regexp-100.xml with one-object-10000.blg (100
// regular-expression datasources of a counter the log does not have, so
// that only matching costs, against a log of 10,000 columns of one
// object),
// self-16MiB.xml (16 MiB, inheriting itself under 63 other names: through
// 1 to 19 /proc/self/root prefixes, Linux following at most 40 links, and
// 44 symbolic links self-link-N.xml), inherits-stdin.xml (inheriting
// /dev/stdin).
package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/tools/hostile"
)

func main() {
	dir := flag.String("o", ".", "folder to write the files into")
	flag.Parse()
	abs, err := filepath.Abs(*dir)
	if err != nil {
		log.Fatal(err)
	}
	self := filepath.ToSlash(filepath.Join(abs, "self-16MiB.xml"))
	var selfNames []string
	for i := 1; i <= 19; i++ {
		selfNames = append(selfNames, strings.Repeat("/proc/self/root", i)+self)
	}
	for i := 1; i <= 44; i++ {
		link := "self-link-" + strconv.Itoa(i) + ".xml"
		os.Remove(filepath.Join(abs, link))
		if err := os.Symlink("self-16MiB.xml", filepath.Join(abs, link)); err != nil {
			log.Fatal(err)
		}
		selfNames = append(selfNames, link)
	}
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
		"long-instances.bin":       blob,
		"capped-instances.bin":     capped,
		"pattern.txt":              []byte(`\#230(` + hostile.NearMissPattern(1000) + `)\*`),
		"counter-list.blg":         hostile.CounterListLog(394_736),
		"names-1e6.multisz":        names,
		"new-instances.blg":        hostile.NewInstancesLog(4, 2500, 40),
		"questions-40000.xml":      hostile.ManyQuestions(40_000),
		"questions-2000x20000.xml": hostile.QuestionsAnalyses(2_000, 20_000),
		"trim-4MiB-9000.xml":       hostile.TrimCalls(4<<20, 9_000),
		"regexp-100.xml":           hostile.RegexpDatasources(100, "Other"),
		"one-object-10000.blg":     hostile.OneObjectLog(10_000, "Count"),
		"self-16MiB.xml":           hostile.SelfInheriting(selfNames, 16<<20),
		"inherits-stdin.xml":       hostile.Inheriting("/dev/stdin"),
	} {
		if err := os.WriteFile(filepath.Join(*dir, name), data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
