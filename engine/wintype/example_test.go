package wintype_test

import (
	"fmt"

	"github.com/perfcalc/perfcalc/engine/wintype"
)

func ExampleParseSystemTime() {
	// PERF_DATA_BLOCK.SystemTime of a capture taken on 2 August 2007 at
	// 14:15:40.659 (a Thursday).
	st := wintype.ParseSystemTime([]byte{0xD7, 0x07, 8, 0, 4, 0, 2, 0, 14, 0, 15, 0, 40, 0, 0x93, 0x02})
	fmt.Printf("%04d-%02d-%02d %02d:%02d:%02d.%03d (day %d of the week)\n",
		st.Year, st.Month, st.Day, st.Hour, st.Minute, st.Second, st.Milliseconds, st.DayOfWeek)
	// Output: 2007-08-02 14:15:40.659 (day 4 of the week)
}

func ExampleText() {
	// "% Processor Time" as a name table stores it (UTF-16LE, no NUL).
	name := wintype.Text("%\x00 \x00P\x00r\x00o\x00c\x00e\x00s\x00s\x00o\x00r\x00 \x00T\x00i\x00m\x00e\x00")
	fmt.Println(name.Len(), name.String(), name.EqualFold("% processor time"))
	// Output: 16 % Processor Time true
}
