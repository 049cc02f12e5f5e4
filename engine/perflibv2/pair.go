package perflibv2

import "github.com/perfcalc/perfcalc/engine"

// Selector names one counter value of a PerfQueryCounterData result for
// Fill.
type Selector struct {
	// Block is the position of the PERF_COUNTER_HEADER block, which is the
	// Index that PerfQueryCounterInfo gave the counter's
	// PERF_COUNTER_IDENTIFIER.
	Block int
	// Row is the instance's position in the block (0 for blocks without
	// instances).
	Row int
	// CounterID is the counter's CounterId.
	CounterID uint32
	// IDs optionally gives, for each block position, the CounterId of the
	// PERF_COUNTER_IDENTIFIER with that Index. SingleCounter and
	// MultipleInstances blocks do not carry their counter's id: Fill uses
	// IDs to find helper counters (base, time, frequency, multi count) in
	// such blocks. Without IDs, helpers are found only in blocks that list
	// their ids (MultipleCounters and Counterset).
	IDs []uint32
}

// Fill pairs one counter value of a PerfQueryCounterData result (data)
// with the counterset's registration (reg) and sets in.Counter and in.New,
// ready for engine.Compute once the caller has moved the previous sample
// into in.Old. It leaves in.Old and in.HasOld alone and allocates nothing.
//
//   - in.Counter: Type and Scale from the counter's PERF_COUNTER_REG_INFO;
//     TimeBase (F) from the type's time base: PERF_DATA_HEADER.PerfFreq for
//     PERF_TIMER_TICK, 10,000,000 for PERF_TIMER_100NS, the value of the
//     PerfFreqId counter for PERF_OBJECT_TIMER.
//   - in.New.FirstValue: the counter's value (N); TimeStamp:
//     PERF_DATA_HEADER.PerfTime100NSec.
//   - in.New.SecondValue: the BaseCounterId counter's value for the types
//     with a base (fraction, average and precision types); otherwise the
//     time stamp of the type's time base: PerfTimeStamp, PerfTime100NSec,
//     or the PerfTimeId counter's value.
//   - in.New.MultiCount: the MultiId counter's value for the multi timers.
//   - in.New.CStatus: engine.CStatusInvalidData when the block (or a
//     helper's block) has an error status or is a PERF_ERROR_RETURN, when a
//     helper counter that the formula uses is missing (NoCounter, not in
//     the result, or not for the same instance), or when a value is not 1
//     to 8 bytes long; engine.CStatusValidData otherwise.
//
// A helper counter is looked up first in the same row of the same block,
// then in the other blocks: for a row with an instance, the helper's row
// must have the same InstanceId and name; for a row without one, the
// helper must be in a block without instances.
//
// A PERF_ERROR_RETURN block carries no values: Fill takes the counter to be
// sel.CounterID (unless IDs[Block] names another) and reports it invalid.
//
// Fill reports false when the selected block, row or counter does not
// exist (in.Counter and in.New are then left unchanged), and an
// *engine.FormatError when data is malformed.
//
// # Notes
//
// Fill walks data up to the selected block, then, for each helper counter
// that is not in the same row, the whole of data again, and looks the
// counter up in reg linearly: one call costs O(size of data + size of reg)
// and allocates nothing. Filling every value of a result this way costs
// the values times the size, quadratic in the size (seconds for a real
// 700 KB counterset). To fill many values of one result, build an Index
// once (Index.Reset) and use Index.Fill, which gives the same results in
// O(log n) per value.
func Fill(in *engine.Input, data []byte, reg *RegInfo, sel Selector) (bool, error) {
	var p Parser
	h, err := p.Start(data)
	if err != nil {
		return false, err
	}
	found := false
	for !found && p.Next() {
		found = p.Block().Index == sel.Block
	}
	if !found {
		return false, p.Err()
	}
	blk := p.Block()
	ci, ok := reg.Lookup(sel.CounterID)
	if !ok {
		return false, nil
	}
	var first uint64
	var row Row
	bad := blk.Status != 0 || blk.Type == ErrorReturn
	if !blk.HasCounterIDs() && sel.Block < len(sel.IDs) && sel.IDs[sel.Block] != sel.CounterID {
		return false, nil // the block holds another counter
	}
	if blk.Type != ErrorReturn {
		if !rowAt(blk, sel.Row, &row) {
			return false, nil
		}
		pos := 0
		if blk.HasCounterIDs() {
			pos = blk.counterPos(sel.CounterID)
		}
		if pos < 0 {
			return false, nil
		}
		v, _ := row.Value(pos)
		var okv bool
		first, okv = v.Uint64()
		bad = bad || !okv
	}
	pair(in, &h, &ci, bad, first, func(id uint32) (uint64, bool) { return helper(data, blk, &row, sel, id) })
	return true, nil
}

// pair sets in.Counter and in.New for counter ci with value first, once
// bad tells whether the value is invalid (its block failed or it is not
// 1 to 8 bytes long): the time base, the time stamp or base, and the
// multi count, looking helper counters up with look.
func pair(in *engine.Input, h *DataHeader, ci *CounterRegInfo, bad bool, first uint64, look func(id uint32) (uint64, bool)) {
	c := engine.Counter{Type: ci.Type, Scale: ci.DefaultScale}
	n := engine.RawCounter{TimeStamp: h.PerfTime100NSec, FirstValue: first}
	_, hasBase := ci.Type.Base()
	usesBase := hasBase && !ci.Type.Multi()
	switch ci.Type.TimeBase() {
	case engine.TimerTick:
		c.TimeBase = h.PerfFreq
		if !usesBase {
			n.SecondValue = uint64(h.PerfTimeStamp)
		}
	case engine.Timer100NS:
		c.TimeBase = engine.Frequency100NS
		if !usesBase {
			n.SecondValue = uint64(h.PerfTime100NSec)
		}
	default:
		// PERF_OBJECT_TIMER: the time stamp and frequency are counters,
		// needed by the displayable types that have no base.
		if ci.Type.Displayable() && !usesBase && !bad {
			t, okt := look(ci.PerfTimeID)
			f, okf := look(ci.PerfFreqID)
			n.SecondValue, c.TimeBase = t, int64(f)
			bad = !okt || !okf
		}
	}
	if usesBase && !bad {
		b, okb := look(ci.BaseCounterID)
		n.SecondValue = b
		bad = !okb
	}
	if ci.Type.Multi() && ci.Type.Displayable() && !bad {
		m, okm := look(ci.MultiID)
		n.MultiCount = uint32(m)
		bad = !okm
	}
	if bad {
		n.CStatus = engine.CStatusInvalidData
	}
	in.Counter, in.New = c, n
}

// rowAt sets r to the i-th row of blk.
func rowAt(blk *Block, i int, r *Row) bool {
	if i < 0 || i >= blk.rows {
		return false
	}
	rs := blk.Rows()
	for rs.Next() {
		if rs.Row().Index == i {
			*r = *rs.Row()
			return true
		}
	}
	return false
}

// helper returns the value of counter id for the instance of row, looking
// first in row, then in every block of data; see Fill. The data was
// checked up to the selected block; a malformed later block ends the
// search.
func helper(data []byte, blk *Block, row *Row, sel Selector, id uint32) (uint64, bool) {
	if id == NoCounter {
		return 0, false
	}
	if pos := blk.counterPos(id); pos >= 0 && blk.Status == 0 {
		v, _ := row.Value(pos)
		return v.Uint64()
	}
	var p Parser
	if _, err := p.Start(data); err != nil {
		return 0, false
	}
	for p.Next() {
		b := p.Block()
		if b.Index == blk.Index || b.Type == ErrorReturn || b.HasInstances() != row.HasInstance {
			continue
		}
		pos := -1
		if b.HasCounterIDs() {
			pos = b.counterPos(id)
		} else if b.Index < len(sel.IDs) && sel.IDs[b.Index] == id {
			pos = 0
		}
		if pos < 0 {
			continue
		}
		rs := b.Rows()
		for rs.Next() {
			r := rs.Row()
			if row.HasInstance && (r.InstanceID != row.InstanceID || string(r.Name) != string(row.Name)) {
				continue
			}
			if b.Status != 0 {
				return 0, false
			}
			v, _ := r.Value(pos)
			return v.Uint64()
		}
	}
	return 0, false
}
