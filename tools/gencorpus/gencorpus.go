package gencorpus

import "errors"

// Kind says which decoder reads a generated file.
type Kind uint8

// The kinds of generated files.
const (
	KindV1          Kind = iota + 1 // a V1 HKEY_PERFORMANCE_DATA blob (perfdata.Parse)
	KindNameTable                   // a Counter/Help REG_MULTI_SZ name table (nametable.Parse)
	KindV2Data                      // a PerfQueryCounterData result (perflibv2.Parser)
	KindV2RegInfo                   // a PERF_COUNTERSET_REG_INFO registration (perflibv2.ParseRegInfo)
	KindV2Strings                   // a PERF_STRING_BUFFER_HEADER block (perflibv2.ParseStrings)
	KindV2Instances                 // a PERF_INSTANCE_HEADER array (perflibv2.InstanceParser)
	KindBlg                         // a perfmon .blg log (blg.NewReader)
)

// File is one generated file: its name in testdata/corpus, the decoder
// that reads it and its bytes.
type File struct {
	Name string
	Kind Kind
	Data []byte
}

// The names of the generated files in testdata/corpus.
const (
	NameGlobal1     = "global-1.bin"
	NameGlobal2     = "global-2.bin"
	NameCounter009  = "counter-009.multisz"
	NameHelp009     = "help-009.multisz"
	NameV2RegInfo   = "v2-reginfo.bin"
	NameV2Strings   = "v2-strings.bin"
	NameV2Instances = "v2-instances.bin"
	NameV2Data1     = "v2-data-1.bin"
	NameV2Data2     = "v2-data-2.bin"
	NameSampleBlg   = "sample.blg"
)

// Build builds every generated file, in a fixed order: the V1 pair, the two
// name tables, the V2 files, then the sample log. It is deterministic.
func Build() ([]File, error) {
	var files []File
	add := func(name string, k Kind, b []byte, err error) error {
		if err != nil {
			return errors.New("gencorpus: " + name + ": " + err.Error())
		}
		files = append(files, File{Name: name, Kind: k, Data: b})
		return nil
	}
	for s, name := range []string{NameGlobal1, NameGlobal2} {
		b, err := globalBlob(s)
		if err := add(name, KindV1, b, err); err != nil {
			return nil, err
		}
	}
	counters, helps, err := nameTables()
	if err := add(NameCounter009, KindNameTable, counters, err); err != nil {
		return nil, err
	}
	if err := add(NameHelp009, KindNameTable, helps, nil); err != nil {
		return nil, err
	}
	b, err := v2RegInfo()
	if err := add(NameV2RegInfo, KindV2RegInfo, b, err); err != nil {
		return nil, err
	}
	b, err = v2Strings()
	if err := add(NameV2Strings, KindV2Strings, b, err); err != nil {
		return nil, err
	}
	b, err = v2Instances()
	if err := add(NameV2Instances, KindV2Instances, b, err); err != nil {
		return nil, err
	}
	for s, name := range []string{NameV2Data1, NameV2Data2} {
		b, err := v2Data(s)
		if err := add(name, KindV2Data, b, err); err != nil {
			return nil, err
		}
	}
	if err := add(NameSampleBlg, KindBlg, sampleLog(), nil); err != nil {
		return nil, err
	}
	return files, nil
}

// Files returns every generated file by name (see Build).
func Files() (map[string][]byte, error) {
	files, err := Build()
	if err != nil {
		return nil, err
	}
	m := make(map[string][]byte, len(files))
	for _, f := range files {
		m[f.Name] = f.Data
	}
	return m, nil
}

// Seeds returns the generated files of one kind, in Build's order, as seed
// inputs for the fuzz target of that kind's decoder.
func Seeds(k Kind) ([][]byte, error) {
	files, err := Build()
	if err != nil {
		return nil, err
	}
	var seeds [][]byte
	for _, f := range files {
		if f.Kind == k {
			seeds = append(seeds, f.Data)
		}
	}
	return seeds, nil
}
