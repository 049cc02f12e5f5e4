package main

import (
	"bytes"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/perfcalc/perfcalc/engine/detect"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/engine/query"
)

// captureKind is the format of a capture file, recognised from its bytes.
type captureKind uint8

const (
	kindV1 captureKind = iota + 1 // a V1 HKEY_PERFORMANCE_DATA blob: "PERF" in UTF-16LE
	kindV2                        // a V2 PerfQueryCounterData result: a valid PERF_DATA_HEADER and blocks
)

func (k captureKind) String() string {
	switch k {
	case kindV1:
		return "a V1 blob"
	case kindV2:
		return "a V2 PerfQueryCounterData result"
	}
	return "unknown"
}

// readCapture reads a capture file ("-": standard input, which what names
// in errors) and recognises its format: a V1 blob by its signature, a V2
// result by a PERF_DATA_HEADER whose blocks all decode. Anything else is an
// error that says what the file looks like.
func readCapture(name, what string, stdin *stdinOnce) ([]byte, captureKind, error) {
	data, err := readInput(name, what, stdin, captureLimit)
	if err != nil {
		return nil, 0, err
	}
	switch detect.Format(data) {
	case detect.V1:
		return data, kindV1, nil
	case detect.V2:
		return data, kindV2, nil
	}
	return nil, 0, fmt.Errorf("%s: not a performance-data capture (%s)", name, guessKind(data))
}

// guessKind describes bytes that are not a capture.
func guessKind(data []byte) string {
	switch {
	case len(data) == 0:
		return "the file is empty"
	case nametable.IsTable(data):
		if _, err := nametable.Parse(data); err == nil {
			return "it is a name table: give it with --names"
		}
	case bytes.HasPrefix(data, []byte(`"(PDH-CSV`)) || bytes.HasPrefix(data, []byte(`"(PDH-TSV`)):
		return "it is relog's CSV or TSV output"
	}
	if _, err := perflibv2.ParseRegInfo(data); err == nil && len(data)%perflibv2.CounterRegInfoSize == perflibv2.CountersetRegInfoSize%perflibv2.CounterRegInfoSize {
		return "it looks like a V2 registration: give it with --reginfo"
	}
	return "neither a V1 PERF_DATA_BLOCK nor a V2 PERF_DATA_HEADER"
}

// sourceFlags are the flags that name and interpret captures: the name
// table of V1, the registration, strings, counterset name and block ids of
// V2.
type sourceFlags struct {
	names      string
	reginfo    string
	strs       string
	counterset string
	ids        string
}

func (s *sourceFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.names, "names", "", "V1 name table (\"Counter 009\" REG_MULTI_SZ, UTF-16LE) naming objects and counters")
	fs.StringVar(&s.reginfo, "reginfo", "", "V2: the counterset's registration (PERF_COUNTERSET_REG_INFO), needed for V2 captures")
	fs.StringVar(&s.strs, "strings", "", "V2: the counterset's counter names (PERF_STRING_BUFFER_HEADER)")
	fs.StringVar(&s.counterset, "counterset", "", "V2: the object name of the paths (default: the counterset's GUID)")
	fs.StringVar(&s.ids, "ids", "", "V2: the CounterId of each block, by position, comma-separated (* for blocks that list their counters), for the blocks that do not name their counter")
}

// config loads the files the flags name into a query configuration, for
// captures of the given kind; needReg says whether V2 captures need their
// registration (--reginfo).
func (s *sourceFlags) config(kind captureKind, needReg bool, stdin *stdinOnce) (query.Config, error) {
	var cfg query.Config
	if s.names != "" {
		data, err := readInput(s.names, "--names", stdin, tableLimit)
		if err != nil {
			return cfg, err
		}
		if cfg.Names, err = nametable.Parse(data); err != nil {
			return cfg, fmt.Errorf("%s: %v", s.names, err)
		}
	}
	if kind != kindV2 {
		if s.reginfo != "" || s.strs != "" || s.counterset != "" || s.ids != "" {
			return cfg, &usageError{"--reginfo, --strings, --counterset and --ids are for V2 captures"}
		}
		return cfg, nil
	}
	switch {
	case s.reginfo != "":
		data, err := readInput(s.reginfo, "--reginfo", stdin, tableLimit)
		if err != nil {
			return cfg, err
		}
		reg, err := perflibv2.ParseRegInfo(data)
		if err != nil {
			return cfg, fmt.Errorf("%s: %v", s.reginfo, err)
		}
		cfg.RegInfo = &reg
	case needReg:
		return cfg, &usageError{"a V2 capture needs its counterset's registration: give it with --reginfo FILE"}
	}
	if s.strs != "" {
		data, err := readInput(s.strs, "--strings", stdin, tableLimit)
		if err != nil {
			return cfg, err
		}
		sb, err := perflibv2.ParseStrings(data)
		if err != nil {
			return cfg, fmt.Errorf("%s: %v", s.strs, err)
		}
		cfg.Strings = &sb
	}
	cfg.CounterSet = s.counterset
	if s.ids != "" {
		for _, f := range strings.Split(s.ids, ",") {
			if f = strings.TrimSpace(f); f == "*" || f == "-" {
				cfg.IDs = append(cfg.IDs, perflibv2.NoCounter)
				continue
			}
			id, err := strconv.ParseUint(f, 0, 32)
			if err != nil {
				return cfg, &usageError{fmt.Sprintf("--ids: %q is not a counter id (or * for a block that names its counters)", f)}
			}
			cfg.IDs = append(cfg.IDs, uint32(id))
		}
	}
	return cfg, nil
}
