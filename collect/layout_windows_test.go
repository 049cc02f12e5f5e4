package collect

import (
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Go mirrors of the Windows structures that pdhbuf.go reads from bytes,
// laid out by the compiler as Windows lays them out on 64-bit Windows:
// TestLayouts checks pdhbuf.go's offsets against them.
type (
	pdhRawCounter struct {
		CStatus     uint32
		TimeStamp   windows.Filetime
		FirstValue  int64
		SecondValue int64
		MultiCount  uint32
	}
	pdhRawCounterItem struct {
		Name     *uint16
		RawValue pdhRawCounter
	}
	pdhCounterInfo struct {
		Length         uint32
		Type           uint32
		CVersion       uint32
		CStatus        uint32
		Scale          int32
		DefaultScale   int32
		UserData       uintptr
		QueryUserData  uintptr
		FullPath       *uint16
		MachineName    *uint16
		ObjectName     *uint16
		InstanceName   *uint16
		ParentInstance *uint16
		InstanceIndex  uint32
		CounterName    *uint16
		ExplainText    *uint16
		DataBuffer     [1]uint32
	}
)

// TestLayouts checks the offsets that pdhbuf.go reads and the Go mirrors
// of the Windows structures against their documented 64-bit layouts
// (pdh.h, perflib.h; WINDOWS.md §3, doc/FORMATS.md §2.1).
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
		{"sizeof(PDH_RAW_COUNTER)", unsafe.Sizeof(raw), rawCounterSize},
		{"PDH_RAW_COUNTER.CStatus", unsafe.Offsetof(raw.CStatus), rawCStatus},
		{"PDH_RAW_COUNTER.TimeStamp", unsafe.Offsetof(raw.TimeStamp), rawTimeStamp},
		{"PDH_RAW_COUNTER.FirstValue", unsafe.Offsetof(raw.FirstValue), rawFirstValue},
		{"PDH_RAW_COUNTER.SecondValue", unsafe.Offsetof(raw.SecondValue), rawSecondValue},
		{"PDH_RAW_COUNTER.MultiCount", unsafe.Offsetof(raw.MultiCount), rawMultiCount},
		{"sizeof(PDH_RAW_COUNTER_ITEM_W)", unsafe.Sizeof(item), rawItemSize},
		{"PDH_RAW_COUNTER_ITEM_W.RawValue", unsafe.Offsetof(item.RawValue), rawItemValue},
		{"sizeof(PDH_FMT_COUNTERVALUE)", unsafe.Sizeof(fmtv), 16},
		{"PDH_FMT_COUNTERVALUE.doubleValue", unsafe.Offsetof(fmtv.DoubleValue), 8},
		{"PDH_COUNTER_INFO_W.dwType", unsafe.Offsetof(ci.Type), infoType},
		{"PDH_COUNTER_INFO_W.CStatus", unsafe.Offsetof(ci.CStatus), 12},
		{"PDH_COUNTER_INFO_W.lDefaultScale", unsafe.Offsetof(ci.DefaultScale), infoDefaultScale},
		{"PDH_COUNTER_INFO_W.dwUserData", unsafe.Offsetof(ci.UserData), infoUserData},
		{"PDH_COUNTER_INFO_W.szFullPath", unsafe.Offsetof(ci.FullPath), infoUserData + 2*unsafe.Sizeof(uintptr(0))},
		{"PDH_COUNTER_INFO_W.szMachineName", unsafe.Offsetof(ci.MachineName), 48},
		{"PDH_COUNTER_INFO_W.dwInstanceIndex", unsafe.Offsetof(ci.InstanceIndex), 80},
		{"PDH_COUNTER_INFO_W.szCounterName", unsafe.Offsetof(ci.CounterName), 88},
		{"PDH_COUNTER_INFO_W.szExplainText", unsafe.Offsetof(ci.ExplainText), 96},
		{"PDH_COUNTER_INFO_W.DataBuffer", unsafe.Offsetof(ci.DataBuffer), 104},
		{"sizeof(PDH_COUNTER_INFO_W)", unsafe.Sizeof(ci), pdhCounterInfoSize},
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
