package blg

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// readCorpus returns the bytes of a real log in ../shared/corpus/blg, or
// skips the test where that folder is absent.
func readCorpus(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpus.Shared(t, "blg"), name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readAll reads every sample of a log and returns deep copies of them
// (samplesOf), failing the test at a damage.
func readAll(t testing.TB, r *Reader) []Sample {
	t.Helper()
	out, err := samplesOf(r)
	if err != nil {
		t.Fatalf("have error %v after %d samples, want none", err, len(out))
	}
	return out
}

type rawJSON struct {
	Counters []struct {
		Path         string `json:"path"`
		Type         string `json:"type"`
		TimeBase     int64  `json:"timebase"`
		DefaultScale int32  `json:"defaultScale"`
	} `json:"counters"`
	Samples [][]struct {
		Status     string `json:"status"`
		TimeStamp  int64  `json:"timestamp_filetime"`
		First      uint64 `json:"first"`
		Second     uint64 `json:"second"`
		MultiCount uint32 `json:"multiCount"`
		Items      []struct {
			Instance   string `json:"instance"`
			First      uint64 `json:"first"`
			Second     uint64 `json:"second"`
			MultiCount uint32 `json:"multiCount"`
		} `json:"items"`
	} `json:"samples"`
}

// TestCorpusRawValues: every sample, every counter of the two PDH raw-value
// logs equals the independent decode in the .raw.json beside them.
func TestCorpusRawValues(t *testing.T) {
	for _, name := range []string{"Tx_BasicPerfCounters", "PowerShell_BadCounterSamples"} {
		t.Run(name, func(t *testing.T) {
			data := readCorpus(t, name+".blg")
			js, err := os.ReadFile(filepath.Join(corpus.Shared(t, "blg"), name+".raw.json"))
			if err != nil {
				t.Fatal(err)
			}
			var want rawJSON
			if err := json.Unmarshal(js, &want); err != nil {
				t.Fatal(err)
			}
			r, err := NewReader(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			cs := r.Counters()
			if len(cs) != len(want.Counters) {
				t.Fatalf("have %d counters, want %d", len(cs), len(want.Counters))
			}
			for i, wc := range want.Counters {
				c := cs[i]
				wt, err := strconv.ParseUint(wc.Type[2:], 16, 32)
				if err != nil {
					t.Fatal(err)
				}
				if c.Path != wc.Path || uint64(c.Type) != wt || c.TimeBase != wc.TimeBase || c.DefaultScale != wc.DefaultScale {
					t.Errorf("counter %d: have %q %#x %d %d, want %q %s %d %d", i, c.Path, uint32(c.Type), c.TimeBase, c.DefaultScale, wc.Path, wc.Type, wc.TimeBase, wc.DefaultScale)
				}
				if e := c.Engine(); e.Type != c.Type || e.Scale != wc.DefaultScale || e.TimeBase != wc.TimeBase {
					t.Errorf("counter %d: Engine() = %+v", i, e)
				}
			}
			samples := readAll(t, r)
			if len(samples) != len(want.Samples) {
				t.Fatalf("have %d samples, want %d", len(samples), len(want.Samples))
			}
			bad := 0
			for si, ws := range want.Samples {
				vals := samples[si].Values
				k := 0
				for ci, wv := range ws {
					wst, _ := strconv.ParseUint(wv.Status[2:], 16, 32)
					if wst != 0 {
						bad++
					}
					if wv.Items == nil {
						if k >= len(vals) {
							t.Fatalf("sample %d: have %d values, want more", si, len(vals))
						}
						v := vals[k]
						k++
						want := engine.RawCounter{CStatus: uint32(wst), TimeStamp: wv.TimeStamp, FirstValue: wv.First, SecondValue: wv.Second, MultiCount: wv.MultiCount}
						if v.Counter != ci || v.Instance != nil || v.Raw != want {
							t.Errorf("sample %d counter %d: have %d %q %+v, want %d %+v", si, ci, v.Counter, v.Instance, v.Raw, ci, want)
						}
						continue
					}
					for _, it := range wv.Items {
						if k >= len(vals) {
							t.Fatalf("sample %d: have %d values, want more", si, len(vals))
						}
						v := vals[k]
						k++
						want := engine.RawCounter{CStatus: uint32(wst), TimeStamp: wv.TimeStamp, FirstValue: it.First, SecondValue: it.Second, MultiCount: it.MultiCount}
						if v.Counter != ci || string(v.Instance) != it.Instance || v.Raw != want {
							t.Errorf("sample %d counter %d: have %d %q %+v, want %d %q %+v", si, ci, v.Counter, v.Instance, v.Raw, ci, it.Instance, want)
						}
					}
				}
				if k != len(vals) {
					t.Errorf("sample %d: have %d values, want %d", si, len(vals), k)
				}
			}
			if name == "PowerShell_BadCounterSamples" && bad != 52 {
				t.Errorf("have %d bad statuses in the expected data, want 52", bad)
			}
		})
	}
}

// TestCorpusBadStatus: a raw record with status PDH_CSTATUS_NO_MACHINE gives
// that counter InvalidData through the engine, and the others of the same
// sample still compute.
func TestCorpusBadStatus(t *testing.T) {
	data := readCorpus(t, "PowerShell_BadCounterSamples.blg")
	r, err := NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	samples := readAll(t, r)
	cs := r.Counters()
	invalid, valid := 0, 0
	for i := 1; i < len(samples); i++ {
		for j, v := range samples[i].Values {
			old := samples[i-1].Values[j]
			res := engine.Compute(&engine.Input{Counter: cs[v.Counter].Engine(), HasOld: true, Old: old.Raw, New: v.Raw}, 0)
			bad := v.Raw.CStatus != engine.CStatusValidData && v.Raw.CStatus != engine.CStatusNewData
			if bad && res.Status != engine.InvalidData {
				t.Errorf("sample %d counter %d: CStatus %#x gives %v, want InvalidData", i, j, v.Raw.CStatus, res.Status)
			}
			if bad {
				invalid++
				if v.Raw.CStatus != engine.CStatusNoMachine {
					t.Errorf("sample %d counter %d: have CStatus %#x, want PDH_CSTATUS_NO_MACHINE", i, j, v.Raw.CStatus)
				}
			}
			if res.Status == engine.Valid {
				valid++
			}
		}
	}
	if invalid == 0 || valid == 0 {
		t.Errorf("have %d InvalidData and %d Valid values, want both", invalid, valid)
	}
}

// TestCorpusWholeObject: the PERF_DATA_BLOCKs of the Vista log are
// byte-identical to the stand-alone blocks cut out of it, and its name
// table equals the machine's Counter 009 table.
func TestCorpusWholeObject(t *testing.T) {
	data := readCorpus(t, "PAL_SamplePerfmonLog.blg")
	v1 := corpus.Shared(t, "v1")
	r, err := NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	samples := readAll(t, r)
	if len(samples) != 11 {
		t.Fatalf("have %d samples, want 11", len(samples))
	}
	cs := r.Counters()
	wantObjects := []string{"LogicalDisk", "TCPv4", "Memory", "Network Interface", "PhysicalDisk", "Process", "Processor", "System"}
	if len(cs) != len(wantObjects) {
		t.Fatalf("have %d counters, want %d", len(cs), len(wantObjects))
	}
	for i, c := range cs {
		if c.Object != wantObjects[i] || c.Counter != "*" || c.Machine != `\\ZACH-PC` || c.Flags != 0x10 {
			t.Errorf("counter %d: have %+v, want object %s, counter *, flags 0x10", i, c, wantObjects[i])
		}
	}
	if have, want := cs[0].Path, `\\ZACH-PC\LogicalDisk(*)\*`; have != want {
		t.Errorf("have path %q, want %q", have, want)
	}
	if have, want := cs[2].Path, `\\ZACH-PC\Memory\*`; have != want {
		t.Errorf("have path %q, want %q", have, want)
	}
	n := 0
	for si, s := range samples {
		if len(s.Values) != 0 || len(s.Blocks) != 8 {
			t.Fatalf("sample %d: have %d values and %d blocks, want 0 and 8", si, len(s.Values), len(s.Blocks))
		}
		for _, b := range s.Blocks {
			hl := le32(b.Data[24:])
			idx := le32(b.Data[hl+12:])
			want, err := os.ReadFile(filepath.Join(v1, "s"+pad2(si)+"_obj"+strconv.Itoa(int(idx))+".bin"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b.Data, want) {
				t.Errorf("sample %d object %d: block differs from the stand-alone one (%d vs %d bytes)", si, idx, len(b.Data), len(want))
			}
			n++
		}
	}
	if n != 88 {
		t.Errorf("have %d blocks, want 88", n)
	}
	nt, err := os.ReadFile(filepath.Join(v1, "pal_counter_009.multisz"))
	if err != nil {
		t.Fatal(err)
	}
	if have := r.NameTable(); !bytes.Equal(have, nt) {
		t.Errorf("name table: have %d bytes, want the %d of pal_counter_009.multisz", len(have), len(nt))
	}
	if have := r.Machine(); have != `\\ZACH-PC` {
		t.Errorf("have machine %q, want \\\\ZACH-PC", have)
	}
	tr := r.Trailer()
	if tr == nil {
		t.Fatal("have no trailer, want one")
	}
	if tr.FirstTime != samples[0].TimeStamp || tr.LastTime != samples[10].TimeStamp || tr.Samples != 11 || tr.Objects != 8 {
		t.Errorf("trailer: have first %d last %d samples %d objects %d, want %d %d 11 8", tr.FirstTime, tr.LastTime, tr.Samples, tr.Objects, samples[0].TimeStamp, samples[10].TimeStamp)
	}
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

func pad2(i int) string {
	if i < 10 {
		return "0" + strconv.Itoa(i)
	}
	return strconv.Itoa(i)
}

// TestCorpusHeaders: the log header, time zone, first and last time stamps
// and sampling interval of each real log.
func TestCorpusHeaders(t *testing.T) {
	for _, tc := range []struct {
		name                string
		headerType          uint8
		major, minor        uint8
		bias                int32
		stdName, stdDisplay string
		hasDST              bool
		start, end          int64
		first, last         int64
		samples             int
		interval            int64
		machine             string
		perfFreq            int64
	}{
		{"PAL_SamplePerfmonLog.blg", 1, 6, 0, 300, "@tzres.dll,-112", "Eastern Standard Time", true,
			0x01c7deaafdbd712c, 0x01c7deac63f393c6, 128315796386590000, 128315802385990000, 11, 599550000, `\\ZACH-PC`, 3579545},
		{"Tx_BasicPerfCounters.blg", 2, 6, 2, 480, "@tzres.dll,-212", "Pacific Standard Time", true,
			0x01ce0f150422df79, 0x01ce0f1669c56115, 130057734178440000, 130057740178400000, 601, 10000000, `\\GEORGIS3`, 2725536},
		{"PowerShell_BadCounterSamples.blg", 1, 5, 2, 180, "SA Eastern Standard Time", "SA Eastern Standard Time", false,
			0x01c7bccd7355f849, 0x01c7be4cc9e43165, 128278596127340000, 128280240135780000, 275, 6000310000, `\\s14185201`, 3579545},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := readCorpus(t, tc.name)
			r, err := NewReader(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			h := r.Header()
			tz := &h.TimeZone
			if h.HeaderType != tc.headerType || h.MajorVersion() != tc.major || h.MinorVersion() != tc.minor || h.BufferSize != 0x10000 || h.PerfFreq != tc.perfFreq {
				t.Errorf("header: have type %d version %d.%d buffer %#x freq %d, want %d %d.%d 0x10000 %d", h.HeaderType, h.MajorVersion(), h.MinorVersion(), h.BufferSize, h.PerfFreq, tc.headerType, tc.major, tc.minor, tc.perfFreq)
			}
			if tz.Bias != tc.bias || tz.StandardName != tc.stdName || tz.StandardDisplayName() != tc.stdDisplay || (tz.DaylightDate.Month != 0) != tc.hasDST {
				t.Errorf("time zone: have %+v (%s), want bias %d, %q (%s)", *tz, tz.StandardDisplayName(), tc.bias, tc.stdName, tc.stdDisplay)
			}
			if h.StartTime != tc.start || h.EndTime != tc.end {
				t.Errorf("have start %#x end %#x, want %#x %#x", h.StartTime, h.EndTime, tc.start, tc.end)
			}
			if r.Machine() != tc.machine {
				t.Errorf("have machine %q, want %q", r.Machine(), tc.machine)
			}
			samples := readAll(t, r)
			if len(samples) != tc.samples {
				t.Fatalf("have %d samples, want %d", len(samples), tc.samples)
			}
			if tc.first != 0 && (samples[0].TimeStamp != tc.first || samples[len(samples)-1].TimeStamp != tc.last) {
				t.Errorf("have first %d last %d, want %d %d", samples[0].TimeStamp, samples[len(samples)-1].TimeStamp, tc.first, tc.last)
			}
			if tc.interval != 0 && r.Interval() != tc.interval {
				t.Errorf("have interval %d, want %d", r.Interval(), tc.interval)
			}
			// The sample time stamps are the logging machine's local time:
			// the zone's rules turn the log's UTC start time into a local
			// time within a second or two of the first sample.
			if tc.name == "PowerShell_BadCounterSamples.blg" {
				// 26 machines whose clocks differ: the event time stamps
				// do not follow the logging machine's; its zone has no
				// daylight rules, so local time is UTC − 3 h all year.
				if have, want := tz.ToLocal(h.StartTime), h.StartTime-3*3600*10_000_000; have != want {
					t.Errorf("ToLocal(start): have %d, want %d", have, want)
				}
			} else {
				local := tz.ToLocal(h.StartTime)
				if d := samples[0].TimeStamp - local; d < -10_000_000 || d > 120*10_000_000 {
					t.Errorf("first sample %d is %d ticks after the local start time %d, want −1..120 s", samples[0].TimeStamp, d, local)
				}
			}
		})
	}
}

// TestCorpusLocalTime: in the Windows 8 log, each raw record's time stamp
// (local) and the 100 ns counters' SecondValue (UTC) differ by the zone's
// bias at that time, as ToLocal computes it, to within a millisecond.
func TestCorpusLocalTime(t *testing.T) {
	data := readCorpus(t, "Tx_BasicPerfCounters.blg")
	r, err := NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	tz := r.Header().TimeZone
	n := 0
	for r.Next() {
		v := r.Sample().Values[2] // Avg. Disk Queue Length, PERF_COUNTER_100NS_QUEUELEN_TYPE
		if d := int64(v.Raw.SecondValue) - v.Raw.TimeStamp; d < 8*3600*10_000_000 || d > 8*3600*10_000_000+10_000 {
			t.Fatalf("sample %d: UTC − local = %d ticks, want 8 h", n, d)
		}
		if d := tz.ToLocal(int64(v.Raw.SecondValue)) - v.Raw.TimeStamp; d < 0 || d > 10_000 {
			t.Fatalf("sample %d: ToLocal(%d) − %d = %d ticks, want 0..1 ms", n, v.Raw.SecondValue, v.Raw.TimeStamp, d)
		}
		n++
	}
	if r.Err() != nil || n != 601 {
		t.Fatalf("have %d samples, error %v; want 601, nil", n, r.Err())
	}
}

// TestCorpusNotBLG: the CSV renamed .blg is refused with a FormatError that
// names the offset, from both entry points.
func TestCorpusNotBLG(t *testing.T) {
	data := readCorpus(t, "PowerShell_CorruptBlg.blg")
	for _, tc := range []struct {
		name string
		open func() (*Reader, error)
	}{
		{"ReaderAt", func() (*Reader, error) { return NewReader(bytes.NewReader(data), int64(len(data))) }},
		{"Stream", func() (*Reader, error) { return NewStreamReader(bytes.NewReader(data)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.open()
			var fe *engine.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("have %v, want a *engine.FormatError", err)
			}
			if fe.Format != "blg" || fe.Record != "WMI_BUFFER_HEADER" || fe.Field != "BufferSize" || fe.Offset != 0 || !errors.Is(err, engine.ErrMalformed) {
				t.Errorf("have %v, want a malformed BufferSize at 0x0", err)
			}
			t.Log(err)
		})
	}
}

// TestCorpusStream: the sequential reader yields the same samples as the
// random-access one.
func TestCorpusStream(t *testing.T) {
	for _, name := range []string{"PAL_SamplePerfmonLog.blg", "Tx_BasicPerfCounters.blg", "PowerShell_BadCounterSamples.blg"} {
		t.Run(name, func(t *testing.T) {
			data := readCorpus(t, name)
			ra, err := NewReader(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			st, err := NewStreamReader(bytes.NewBuffer(bytes.Clone(data)))
			if err != nil {
				t.Fatal(err)
			}
			a, b := readAll(t, ra), readAll(t, st)
			if len(a) != len(b) {
				t.Fatalf("have %d streamed samples, want %d", len(b), len(a))
			}
			for i := range a {
				if !bytes.Equal(a[i].Record, b[i].Record) || a[i].TimeStamp != b[i].TimeStamp || len(a[i].Values) != len(b[i].Values) {
					t.Fatalf("sample %d differs", i)
				}
			}
		})
	}
}
