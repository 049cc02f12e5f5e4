// Package describe turns V1 blobs and V2 results, decoded by engine/perfdata
// and engine/perflibv2, back into tools/encode's descriptions of them, for
// the encoders' round-trip tests and fuzz targets.
package describe

import (
	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/tools/encode"
)

// V1 decodes a V1 blob with perfdata back into the encoder's
// description: every header, object, counter and instance field, each
// counter's raw value read with CounterBlock.Value, and the multi timers'
// trailing counts. A round trip test compares it with what was encoded.
func V1(data []byte) (encode.V1Blob, error) {
	var d encode.V1Blob
	blk, err := perfdata.Parse(data)
	if err != nil {
		return d, err
	}
	d.SystemName = blk.SystemName()
	d.SystemTime = blk.SystemTime
	d.DefaultObject, d.PerfTime, d.PerfFreq, d.PerfTime100nSec = blk.DefaultObject, blk.PerfTime, blk.PerfFreq, blk.PerfTime100nSec
	objs := blk.Objects()
	for objs.Next() {
		o := objs.Object()
		eo := encode.V1Object{
			ObjectNameTitleIndex: o.ObjectNameTitleIndex, ObjectHelpTitleIndex: o.ObjectHelpTitleIndex,
			DetailLevel: o.DetailLevel, DefaultCounter: o.DefaultCounter, NumInstances: o.NumInstances,
			CodePage: o.CodePage, PerfTime: o.PerfTime, PerfFreq: o.PerfFreq,
		}
		var defs []perfdata.CounterDef
		cs := o.Counters()
		for cs.Next() {
			c := cs.Counter()
			defs = append(defs, *c)
			eo.Counters = append(eo.Counters, encode.V1Counter{
				CounterNameTitleIndex: c.CounterNameTitleIndex, CounterHelpTitleIndex: c.CounterHelpTitleIndex,
				DefaultScale: c.DefaultScale, DetailLevel: c.DetailLevel, CounterType: c.CounterType,
				CounterSize: c.CounterSize, CounterOffset: c.CounterOffset,
			})
		}
		if err := cs.Err(); err != nil {
			return d, err
		}
		trailing := false
		for i := range eo.Counters {
			trailing = trailing || encode.V1TrailingCount(eo.Counters, i)
		}
		is := o.Instances()
		for is.Next() {
			in := is.Instance()
			name, err := in.Name()
			if err != nil {
				return d, err
			}
			ei := encode.V1Instance{Name: name, ParentObjectTitleIndex: in.ParentObjectTitleIndex, ParentObjectInstance: in.ParentObjectInstance, UniqueID: in.UniqueID}
			if trailing {
				ei.MultiCounts = make([]uint32, len(defs))
			}
			for i := range defs {
				var v uint64
				if defs[i].CounterSize != 0 {
					if v, err = in.CounterBlock.Value(&defs[i]); err != nil {
						return d, err
					}
				}
				ei.Values = append(ei.Values, v)
				if encode.V1TrailingCount(eo.Counters, i) {
					var x engine.Input
					if err := o.Fill(&x, &defs[i], in.CounterBlock); err != nil {
						return d, err
					}
					ei.MultiCounts[i] = x.New.MultiCount
				}
			}
			if bl := in.CounterBlock.ByteLength; bl != encode.V1MinCounterBlock(eo.Counters) {
				eo.CounterBlockLength = bl
			}
			eo.Instances = append(eo.Instances, ei)
		}
		if err := is.Err(); err != nil {
			return d, err
		}
		d.Objects = append(d.Objects, eo)
	}
	if err := objs.Err(); err != nil {
		return d, err
	}
	return d, nil
}

// NormalizeV1 makes empty slices nil, so that descriptions compare by content
// (reflect.DeepEqual).
func NormalizeV1(b *encode.V1Blob) {
	if len(b.Objects) == 0 {
		b.Objects = nil
	}
	for i := range b.Objects {
		o := &b.Objects[i]
		if len(o.Counters) == 0 {
			o.Counters = nil
		}
		if len(o.Instances) == 0 {
			o.Instances = nil
		}
		for j := range o.Instances {
			if len(o.Instances[j].Values) == 0 {
				o.Instances[j].Values = nil
			}
			if len(o.Instances[j].MultiCounts) == 0 {
				o.Instances[j].MultiCounts = nil
			}
		}
	}
}
