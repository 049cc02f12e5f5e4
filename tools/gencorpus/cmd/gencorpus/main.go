// Command gencorpus writes the project's generated captures (package
// gencorpus) into a folder, testdata/corpus by default:
//
//	go run ./tools/gencorpus/cmd/gencorpus -o testdata/corpus
//
// It writes only the generated files and leaves every other file of the
// folder alone.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/perfcalc/perfcalc/tools/gencorpus"
)

func main() {
	out := flag.String("o", filepath.Join("testdata", "corpus"), "the folder to write the files into")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	files, err := gencorpus.Build()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
