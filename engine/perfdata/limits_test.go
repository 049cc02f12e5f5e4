package perfdata_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/tools/hostile"
)

// TestInstanceNameCap: an instance name of PDH_MAX_INSTANCE_NAME characters
// decodes; one character more is refused with the record, the field and
// the offset named.
func TestInstanceNameCap(t *testing.T) {
	for _, n := range []int{counterpath.MaxInstanceName, counterpath.MaxInstanceName + 1, 30_000} {
		blob, err := hostile.LongInstancesV1(2, n)
		if err != nil {
			t.Fatal(err)
		}
		b, err := perfdata.Parse(blob)
		if err != nil {
			t.Fatal(err)
		}
		objs := b.Objects()
		if !objs.Next() {
			t.Fatal(objs.Err())
		}
		o := objs.Object()
		insts := o.Instances()
		insts.Next()
		in, err := insts.Instance(), insts.Err()
		if n <= counterpath.MaxInstanceName {
			if name, nerr := in.Name(); err != nil || nerr != nil || len(name) != n {
				t.Errorf("%d characters: %v, %v", n, err, nerr)
			}
			continue
		}
		var fe *engine.FormatError
		if !errors.As(err, &fe) || !errors.Is(err, engine.ErrUnsupported) || fe.Record != "PERF_INSTANCE_DEFINITION" ||
			fe.Field != "NameLength" || !strings.Contains(err.Error(), "PDH_MAX_INSTANCE_NAME") {
			t.Errorf("%d characters: have %v, want an ErrUnsupported FormatError on NameLength", n, err)
		}
	}
}
