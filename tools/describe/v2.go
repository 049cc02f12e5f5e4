package describe

import (
	"github.com/perfcalc/perfcalc/engine/perflibv2"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// V2Data decodes a PerfQueryCounterData result with perflibv2 back into the
// encoder's description: the header, every block's status, type and counter
// ids, every row's instance and name, and every value with its size.
func V2Data(b []byte) (*encode.V2Data, error) {
	var p perflibv2.Parser
	h, err := p.Start(b)
	if err != nil {
		return nil, err
	}
	d := &encode.V2Data{PerfTimeStamp: h.PerfTimeStamp, PerfTime100NSec: h.PerfTime100NSec, PerfFreq: h.PerfFreq,
		SystemTime: h.SystemTime}
	for p.Next() {
		blk := p.Block()
		eb := encode.V2CounterBlock{Status: blk.Status, Type: uint32(blk.Type)}
		if blk.HasCounterIDs() {
			eb.CounterIDs = []uint32{}
			for i := range blk.NumCounters() {
				id, _ := blk.CounterID(i)
				eb.CounterIDs = append(eb.CounterIDs, id)
			}
		}
		rows := blk.Rows()
		for rows.Next() {
			r := rows.Row()
			er := encode.V2Row{InstanceID: r.InstanceID, Name: r.Name.String()}
			vs := r.Values()
			for vs.Next() {
				v := vs.Value()
				x, _ := v.Uint64()
				er.Values = append(er.Values, encode.V2Value{Size: uint32(len(v.Data)), Value: x})
			}
			eb.Rows = append(eb.Rows, er)
		}
		d.Blocks = append(d.Blocks, eb)
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	return d, nil
}
