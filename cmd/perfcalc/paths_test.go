package main

import "testing"

func TestPathsGolden(t *testing.T) {
	names := corpusFile("counter-009.multisz")
	checkGolden(t, []goldenCase{
		{"paths-global.txt", []string{"paths", corpusFile("global-2.bin"), "--names", names}},
		{"paths-expand.txt", []string{"paths", corpusFile("global-2.bin"), "--names", names,
			"-c", `\Processor(*)\% Processor Time`, "-c", `\Process(svchost#*)\ID Process`, "-c", `\Thread(csrss/*)\ID Thread`}},
		{"paths-indexes.txt", []string{"paths", corpusFile("global-1.bin"), "-c", `\#230(*)\#784`}},
		{"paths-v2.txt", append([]string{"paths", corpusFile("v2-data-1.bin")}, v2Args...)},
	})
}
