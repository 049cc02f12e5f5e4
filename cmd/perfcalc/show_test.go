package main

import "testing"

func TestShowGolden(t *testing.T) {
	names := corpusFile("counter-009.multisz")
	checkGolden(t, []goldenCase{
		{"show-global.txt", []string{"show", corpusFile("global-2.bin"), "--names", names}},
		{"show-global.json", []string{"show", "--json", corpusFile("global-1.bin"), "--names", names}},
		{"show-global-indexes.txt", []string{"show", corpusFile("global-1.bin")}},
		{"show-v2.txt", append([]string{"show", corpusFile("v2-data-2.bin")}, v2Args...)},
		{"show-v2-bare.txt", []string{"show", corpusFile("v2-data-1.bin")}},
	})
}
