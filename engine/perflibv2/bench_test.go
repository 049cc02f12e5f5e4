package perflibv2_test

import (
	"strconv"
	"testing"

	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// bigCounterset builds a result of about 1 MB: one PERF_COUNTERSET block of
// 20 counters and 3000 instances.
func bigCounterset(t testing.TB) []byte {
	ids := make([]uint32, 20)
	for i := range ids {
		ids[i] = uint32(i)
	}
	rows := make([]encode.V2Row, 3000)
	for i := range rows {
		vals := make([]encode.V2Value, len(ids))
		for j := range vals {
			vals[j] = encode.V2Value{Size: 8 >> (j % 2), Value: uint64(i*j) & 0xFFFFFFFF}
		}
		rows[i] = encode.V2Row{InstanceID: uint32(i), Name: "instance " + strconv.Itoa(i), Values: vals}
	}
	return mustEncode(t, &encode.V2Data{PerfFreq: 10_000_000, Blocks: []encode.V2CounterBlock{
		{Type: encode.V2Counterset, CounterIDs: ids, Rows: rows},
	}})
}

func BenchmarkWalkCounterset(b *testing.B) {
	data := bigCounterset(b)
	if len(data) < 1<<20-100_000 || len(data) > 1<<20+100_000 {
		b.Fatalf("blob of %d bytes, want about 1 MB", len(data))
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	var sum uint64
	for i := 0; i < b.N; i++ {
		var p perflibv2.Parser
		if _, err := p.Start(data); err != nil {
			b.Fatal(err)
		}
		for p.Next() {
			blk := p.Block()
			rows := blk.Rows()
			for rows.Next() {
				r := rows.Row()
				vs := r.Values()
				for vs.Next() {
					v := vs.Value()
					x, _ := v.Uint64()
					sum += x
				}
			}
		}
		if err := p.Err(); err != nil {
			b.Fatal(err)
		}
	}
	_ = sum
}

func TestBigCountersetAllocs(t *testing.T) {
	data := bigCounterset(t)
	n := 0
	allocs := testing.AllocsPerRun(5, func() {
		var err error
		n, err = walk(data)
		if err != nil {
			panic(err)
		}
	})
	if allocs != 0 || n != 20*3000 {
		t.Errorf("1 MB walk: have %v allocs and %d values, want 0 and %d", allocs, n, 20*3000)
	}
}
