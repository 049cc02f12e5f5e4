package collect

import (
	"testing"
	"unsafe"
)

// TestLayouts checks the Go mirrors of the Windows structures against
// their documented 64-bit layouts (pdh.h, perflib.h; WINDOWS.md §3,
// doc/FORMATS.md §2.1).
func TestLayouts(t *testing.T) {
	var raw pdhRawCounter
	var item pdhRawCounterItem
	var fmtv pdhFmtCounterValue
	var ci pdhCounterInfo
	var id perfCounterIdentifier
	for _, tc := range []struct {
		name       string
		have, want uintptr
	}{
		{"sizeof(PDH_RAW_COUNTER)", unsafe.Sizeof(raw), 40},
		{"PDH_RAW_COUNTER.TimeStamp", unsafe.Offsetof(raw.TimeStamp), 4},
		{"PDH_RAW_COUNTER.FirstValue", unsafe.Offsetof(raw.FirstValue), 16},
		{"PDH_RAW_COUNTER.SecondValue", unsafe.Offsetof(raw.SecondValue), 24},
		{"PDH_RAW_COUNTER.MultiCount", unsafe.Offsetof(raw.MultiCount), 32},
		{"sizeof(PDH_RAW_COUNTER_ITEM_W)", unsafe.Sizeof(item), 48},
		{"PDH_RAW_COUNTER_ITEM_W.RawValue", unsafe.Offsetof(item.RawValue), 8},
		{"sizeof(PDH_FMT_COUNTERVALUE)", unsafe.Sizeof(fmtv), 16},
		{"PDH_FMT_COUNTERVALUE.doubleValue", unsafe.Offsetof(fmtv.DoubleValue), 8},
		{"PDH_COUNTER_INFO_W.dwType", unsafe.Offsetof(ci.Type), 4},
		{"PDH_COUNTER_INFO_W.CStatus", unsafe.Offsetof(ci.CStatus), 12},
		{"PDH_COUNTER_INFO_W.lDefaultScale", unsafe.Offsetof(ci.DefaultScale), 20},
		{"PDH_COUNTER_INFO_W.dwUserData", unsafe.Offsetof(ci.UserData), 24},
		{"PDH_COUNTER_INFO_W.szFullPath", unsafe.Offsetof(ci.FullPath), 40},
		{"PDH_COUNTER_INFO_W.szMachineName", unsafe.Offsetof(ci.MachineName), 48},
		{"PDH_COUNTER_INFO_W.dwInstanceIndex", unsafe.Offsetof(ci.InstanceIndex), 80},
		{"PDH_COUNTER_INFO_W.szCounterName", unsafe.Offsetof(ci.CounterName), 88},
		{"PDH_COUNTER_INFO_W.szExplainText", unsafe.Offsetof(ci.ExplainText), 96},
		{"PDH_COUNTER_INFO_W.DataBuffer", unsafe.Offsetof(ci.DataBuffer), 104},
		{"sizeof(PDH_COUNTER_INFO_W)", unsafe.Sizeof(ci), 112},
		{"sizeof(PERF_COUNTER_IDENTIFIER)", unsafe.Sizeof(id), perfCounterIdentifierSize},
		{"PERF_COUNTER_IDENTIFIER.Status", unsafe.Offsetof(id.Status), 16},
		{"PERF_COUNTER_IDENTIFIER.Size", unsafe.Offsetof(id.Size), 20},
		{"PERF_COUNTER_IDENTIFIER.CounterId", unsafe.Offsetof(id.CounterID), 24},
		{"PERF_COUNTER_IDENTIFIER.InstanceId", unsafe.Offsetof(id.InstanceID), 28},
		{"PERF_COUNTER_IDENTIFIER.Index", unsafe.Offsetof(id.Index), 32},
	} {
		if tc.have != tc.want {
			t.Errorf("%s: have %d, want %d", tc.name, tc.have, tc.want)
		}
	}
}

// TestCounterIdentifierBytes checks the identifier that Open adds: every
// counter of a set, and for a multi-instance set the instance "*".
func TestCounterIdentifierBytes(t *testing.T) {
	set := [16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	for _, multi := range []bool{false, true} {
		b := counterIdentifier(set, multi)
		id := (*perfCounterIdentifier)(unsafe.Pointer(&b[0]))
		wantSize := uint32(40)
		if multi {
			wantSize = 48
		}
		if id.CounterSetGUID != set || id.Size != wantSize || id.CounterID != perfWildcardCounter || id.InstanceID != perfWildcardInstanceID || len(b) != int(wantSize) {
			t.Fatalf("multi %v: %+v (%d bytes)", multi, *id, len(b))
		}
		if multi && (b[40] != '*' || b[41] != 0 || b[42] != 0 || b[43] != 0) {
			t.Fatalf("instance name % x, want L\"*\"", b[40:44])
		}
		if uintptr(unsafe.Pointer(&b[0]))%8 != 0 {
			t.Fatal("identifier not 8-byte aligned")
		}
	}
}
