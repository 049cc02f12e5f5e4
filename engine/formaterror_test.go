package engine

import (
	"errors"
	"testing"
)

func TestFormatError(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  *FormatError
		want string
		is   error
	}{
		{
			"doc example",
			&FormatError{Format: "perfdata", Record: "PERF_OBJECT_TYPE", Index: 3, Offset: 0x1a40, Field: "DefinitionLength", Detail: "4096 exceeds TotalByteLength 2048", Err: ErrMalformed},
			"perfdata: PERF_OBJECT_TYPE 3 at 0x1a40: DefinitionLength 4096 exceeds TotalByteLength 2048",
			ErrMalformed,
		},
		{
			"no index",
			&FormatError{Format: "perfdata", Record: "PERF_OBJECT_TYPE", Index: -1, Offset: 0x1a8, Field: "DefinitionLength", Detail: "4096 exceeds TotalByteLength 2048", Err: ErrMalformed},
			"perfdata: PERF_OBJECT_TYPE at 0x1a8: DefinitionLength 4096 exceeds TotalByteLength 2048",
			ErrMalformed,
		},
		{
			"no detail: the sentinel's text",
			&FormatError{Format: "blg", Record: "PDH_RAW_COUNTER", Index: 0, Offset: 0, Field: "FirstValue", Err: ErrTruncated},
			"blg: PDH_RAW_COUNTER 0 at 0x0: FirstValue truncated",
			ErrTruncated,
		},
		{
			"no field",
			&FormatError{Format: "perflibv2", Record: "PERF_DATA_HEADER", Index: -1, Offset: 16, Detail: "big-endian", Err: ErrUnsupported},
			"perflibv2: PERF_DATA_HEADER at 0x10: big-endian",
			ErrUnsupported,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if have := tc.err.Error(); have != tc.want {
				t.Errorf("have %q, want %q", have, tc.want)
			}
			if !errors.Is(tc.err, tc.is) {
				t.Errorf("errors.Is(%v): have false, want true", tc.is)
			}
			for _, other := range []error{ErrTruncated, ErrMalformed, ErrUnsupported} {
				if other != tc.is && errors.Is(tc.err, other) {
					t.Errorf("errors.Is(%v): have true, want false", other)
				}
			}
		})
	}
}
