package perflibv2_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// TestInstanceNameCap: a V2 instance name of PDH_MAX_INSTANCE_NAME
// characters decodes; one more is refused, naming the record and field.
func TestInstanceNameCap(t *testing.T) {
	for _, n := range []int{counterpath.MaxInstanceName, counterpath.MaxInstanceName + 1} {
		b, err := encode.EncodeV2Instances([]encode.V2Instance{{InstanceID: 1, Name: strings.Repeat("x", n)}})
		if err != nil {
			t.Fatal(err)
		}
		var p perflibv2.InstanceParser
		p.Start(b)
		ok := p.Next()
		inst, err := p.Instance(), p.Err()
		if n <= counterpath.MaxInstanceName {
			if !ok || err != nil || inst.Name.Len() != n {
				t.Errorf("%d characters: %v, %v", n, ok, err)
			}
			continue
		}
		var fe *engine.FormatError
		if !errors.As(err, &fe) || !errors.Is(err, engine.ErrUnsupported) || fe.Record != "PERF_INSTANCE_HEADER" || fe.Field != "Name" {
			t.Errorf("%d characters: have %v, want an ErrUnsupported FormatError on Name", n, err)
		}
	}
}
