package gencorpus

import (
	"testing"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perflibv2"
)

func TestV2RegInfoStringsInstances(t *testing.T) {
	files := build(t)
	reg, err := perflibv2.ParseRegInfo(files[NameV2RegInfo])
	if err != nil {
		t.Fatal(err)
	}
	if reg.Len() != 12 || reg.Header.NumCounters != 12 || reg.Header.InstanceType != perflibv2.CountersetMultiInstances {
		t.Errorf("header %+v, %d counters", reg.Header, reg.Len())
	}
	if reg.Header.CounterSetGUID.String() != "{5c1ef9a8-1b0e-4a8f-9d36-7f2a4e6c0b51}" {
		t.Errorf("GUID %s", reg.Header.CounterSetGUID)
	}
	for _, tc := range []struct {
		id                    uint32
		typ                   engine.CounterType
		base, time, freq, mul uint32
	}{
		{0, engine.Timer100nsInv, perflibv2.NoCounter, perflibv2.NoCounter, perflibv2.NoCounter, perflibv2.NoCounter},
		{1, engine.Precision100nsTimer, 2, perflibv2.NoCounter, perflibv2.NoCounter, perflibv2.NoCounter},
		{3, engine.ObjTimeTimer, perflibv2.NoCounter, 4, 5, perflibv2.NoCounter},
		{6, engine.MultiTimer100ns, perflibv2.NoCounter, perflibv2.NoCounter, perflibv2.NoCounter, 7},
		{8, engine.RawFraction, 9, perflibv2.NoCounter, perflibv2.NoCounter, perflibv2.NoCounter},
	} {
		c, ok := reg.Lookup(tc.id)
		if !ok || c.Type != tc.typ || c.BaseCounterID != tc.base || c.PerfTimeID != tc.time || c.PerfFreqID != tc.freq || c.MultiID != tc.mul {
			t.Errorf("counter %d: have %+v", tc.id, c)
		}
	}

	sb, err := perflibv2.ParseStrings(files[NameV2Strings])
	if err != nil {
		t.Fatal(err)
	}
	if sb.Reading() != perflibv2.ReadingSDK {
		t.Errorf("strings reading %v, want SDK", sb.Reading())
	}
	want := []string{"% Processor Time", "% Priority Time", "Priority Time Stamp", "% Idle Time", "Idle Time Stamp",
		"Idle Time Frequency", "% Core Busy Time", "Active Cores", "% of Maximum Frequency", "Maximum Frequency",
		"Interrupts/sec", "Processor Frequency"}
	if sb.Len() != len(want) {
		t.Fatalf("have %d strings, want %d", sb.Len(), len(want))
	}
	for i, w := range want {
		id, text, ok := sb.At(i)
		if !ok || id != uint32(i) || text.String() != w {
			t.Errorf("string %d: have %d %q, want %d %q", i, id, text.String(), i, w)
		}
	}

	var p perflibv2.InstanceParser
	p.Start(files[NameV2Instances])
	var names []string
	for p.Next() {
		in := p.Instance()
		if in.InstanceID != uint32(len(names)) {
			t.Errorf("instance %q: id %d", in.Name.String(), in.InstanceID)
		}
		names = append(names, in.Name.String())
	}
	if err := p.Err(); err != nil {
		t.Fatal(err)
	}
	if len(names) != 4 || names[0] != "0,0" || names[1] != "0,1" || names[2] != "0,_Total" || names[3] != "_Total" {
		t.Errorf("instances %q", names)
	}
}

// v2Cell is one computed value of the V2 pair.
type v2Cell struct {
	block, row int
	id         uint32
	inst       string
	typ        engine.CounterType
	res        engine.Result
}

func v2Pair(t *testing.T) []v2Cell {
	t.Helper()
	files := build(t)
	reg, err := perflibv2.ParseRegInfo(files[NameV2RegInfo])
	if err != nil {
		t.Fatal(err)
	}
	old, cur := files[NameV2Data1], files[NameV2Data2]
	var p perflibv2.Parser
	h0, err := p.Start(old)
	if err != nil {
		t.Fatal(err)
	}
	h1, err := p.Start(cur)
	if err != nil {
		t.Fatal(err)
	}
	if h1.PerfTimeStamp-h0.PerfTimeStamp != 10_000_000 || h1.PerfTime100NSec-h0.PerfTime100NSec != 10_000_000 || h1.PerfFreq != 10_000_000 {
		t.Errorf("headers %+v, %+v", h0, h1)
	}
	var cells []v2Cell
	var kinds []perflibv2.DataType
	for p.Next() {
		blk := p.Block()
		kinds = append(kinds, blk.Type)
		fill := func(row, k int, inst string) {
			id := V2BlockIDs[blk.Index]
			if blk.HasCounterIDs() {
				id, _ = blk.CounterID(k)
			}
			sel := perflibv2.Selector{Block: blk.Index, Row: row, CounterID: id, IDs: V2BlockIDs}
			var in, o engine.Input
			ok1, err1 := perflibv2.Fill(&in, cur, &reg, sel)
			ok0, err0 := perflibv2.Fill(&o, old, &reg, sel)
			if err1 != nil || err0 != nil || !ok1 || !ok0 {
				t.Fatalf("block %d row %d counter %d: %v %v %v %v", blk.Index, row, id, ok0, ok1, err0, err1)
			}
			in.Old, in.HasOld = o.New, true
			cells = append(cells, v2Cell{blk.Index, row, id, inst, in.Type, engine.Compute(&in, 0)})
		}
		if blk.Type == perflibv2.ErrorReturn {
			if blk.Status != V2ErrorStatus {
				t.Errorf("error block status %#x, want %#x", blk.Status, V2ErrorStatus)
			}
			fill(0, 0, V2MissingInstance)
			continue
		}
		rows := blk.Rows()
		for rows.Next() {
			r := rows.Row()
			for k := 0; k < r.NumValues(); k++ {
				fill(r.Index, k, r.Name.String())
			}
		}
	}
	if err := p.Err(); err != nil {
		t.Fatal(err)
	}
	want := []perflibv2.DataType{perflibv2.Counterset, perflibv2.SingleCounter, perflibv2.MultipleCounters,
		perflibv2.MultipleInstances, perflibv2.ErrorReturn}
	if len(kinds) != len(want) {
		t.Fatalf("block kinds %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Errorf("block %d: %v, want %v", i, kinds[i], want[i])
		}
	}
	return cells
}

func TestV2PairComputes(t *testing.T) {
	cells := v2Pair(t)
	if len(cells) != 4*12+1+4+4+1 {
		t.Errorf("have %d values, want %d", len(cells), 4*12+1+4+4+1)
	}
	for _, c := range cells {
		want := engine.Valid
		switch {
		case !c.typ.Displayable():
			want = engine.NotDisplayable
		case c.block == 4:
			want = engine.InvalidData // PERF_ERROR_RETURN
		}
		if c.res.Status != want {
			t.Errorf("block %d row %d counter %d: have %v, want %v", c.block, c.row, c.id, c.res.Status, want)
		}
	}
	sec := 10_000_000.0
	for _, tc := range []struct {
		block int
		inst  string
		id    uint32
		want  float64
	}{
		{0, "_Total", 0, 100 * (1 - 7_500_000/sec)},     // % Processor Time = 25
		{0, "0,0", 0, 100 * (1 - 6_000_000/sec)},        // 40
		{0, "0,0", 1, (3_000_000 / sec) * 100},          // % Priority Time (precision, base 2) = 30
		{0, "0,1", 3, (9_000_000 / sec) * 100},          // % Idle Time (object timer via 4 and 5) = 90
		{0, "_Total", 6, ((5_000_000 / sec) / 2) * 100}, // % Core Busy Time (multi, count 7 = 2) = 25
		{0, "0,0", 8, (x(2_700) / 3_600) * 100},         // % of Maximum Frequency = 75
		{0, "0,_Total", 10, 3_500 / (sec / sec)},        // Interrupts/sec
		{1, "", 0, 100 * (1 - 7_500_000/sec)},           // the single counter: _Total's % Processor Time
		{2, "", 8, (x(2_700) / 3_600) * 100},            // multiple counters: base 9 in the same row
		{2, "", 11, 2_700},
		{3, "0,1", 10, 1_350 / (sec / sec)}, // multiple instances
	} {
		found := false
		for _, c := range cells {
			if c.block == tc.block && c.inst == tc.inst && c.id == tc.id {
				found = true
				if c.res.Status != engine.Valid || c.res.Value != tc.want {
					t.Errorf("block %d %q counter %d: have %v %v, want Valid %v", tc.block, tc.inst, tc.id, c.res.Status, c.res.Value, tc.want)
				}
			}
		}
		if !found {
			t.Errorf("block %d %q counter %d: missing", tc.block, tc.inst, tc.id)
		}
	}
}
