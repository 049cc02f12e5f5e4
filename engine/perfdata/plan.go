package perfdata

import (
	"encoding/binary"
	"math"

	"github.com/perfcalc/perfcalc/engine"
)

// Plan is an object's counter definitions prepared for filling engine
// inputs: what Fill works out for every value (the time base, where the
// value and its base lie, what a missing base means), worked out once per
// object, so that filling an instance's counters (Plan.Fill) is a loop of
// loads and stores. A Plan is a caller-owned value: Object.Plan reuses its
// buffers, so that preparing object after object allocates nothing once
// they have grown. It aliases the object's bytes and is valid while the
// input is.
type Plan struct {
	// Defs are the object's counter definitions, in order: Plan.Fill fills
	// dst[i] for Defs[i].
	Defs []CounterDef

	obj   Object // a copy: Plan keeps no pointer to the caller's Object
	slots []fillSlot
	need  uint64 // the bytes a counter block needs for every slot's reads
	stamp int64  // New.TimeStamp of every value: the block's PerfTime100nSec
}

// fillSlot is one counter definition's share of Fill.
type fillSlot struct {
	counter engine.Counter // Type, Scale and F, as Fill sets them
	d       uint64         // D of the type's time base: New.SecondValue unless the base goes there
	value   field          // N
	base    field          // B: the next definition's value or the DWORD after N, when kind says so
	kind    slotKind
}

// slotKind says what a slot does beyond N and D.
type slotKind uint8

const (
	slotPlain          slotKind = iota // New = {N, D}
	slotSecondFromBase                 // SecondValue = B (fraction, average, precision types)
	slotMultiFromBase                  // MultiCount = B saturated at 2^32−1 (a PERF_COUNTER_MULTI_BASE follows)
	slotMultiFromDword                 // MultiCount = the DWORD after N
	slotMissingBase                    // SecondValue = 0, CStatus = InvalidData
	slotFill                           // anything unusual (a size that is neither 4 nor 8): Object.Fill decides
)

// field reads a value of 4 or 8 bytes (or none) with one 8-byte load, so
// that every size is read the same way, without a branch: the 8 bytes at
// off, shifted right by shift and masked. A 4-byte value at off ≥ 4 is the
// upper half of the 8 bytes at off − 4, so that the load ends where the
// value does and a 4-byte value at the end of a block needs no room after
// it.
type field struct {
	off   uint32
	shift uint8
	mask  uint64
}

// end is the offset just past the field's load.
func (f field) end() uint64 { return uint64(f.off) + 8 }

func (f field) read(b []byte) uint64 {
	off := uint64(f.off)
	return binary.LittleEndian.Uint64(b[off:off+8]) >> (f.shift & 63) & f.mask
}

// fieldOf returns the field of a size-byte value at off; ok is false for a
// size other than 4 and 8, or an offset past 2^32 − 8.
func fieldOf(off, size uint32) (f field, ok bool) {
	if off > math.MaxUint32-8 {
		return field{}, false
	}
	switch size {
	case 4:
		if off >= 4 {
			return field{off: off - 4, shift: 32, mask: math.MaxUint32}, true
		}
		return field{off: off, mask: math.MaxUint32}, true
	case 8:
		return field{off: off, mask: math.MaxUint64}, true
	}
	return field{}, false
}

// Plan prepares p for filling the inputs of o's counters: it decodes o's
// counter definitions into p.Defs and works out, for each, what Fill would
// for every value. It reuses p's buffers; work is linear in NumCounters.
func (o *Object) Plan(p *Plan) error {
	p.obj, p.stamp, p.need = *o, o.blk.perfTime100nSec, CounterBlockSize
	p.Defs, p.slots = p.Defs[:0], p.slots[:0]
	cs := o.Counters()
	for cs.Next() {
		p.Defs = append(p.Defs, *cs.Counter())
	}
	if err := cs.Err(); err != nil {
		return err
	}
	for i := range p.Defs {
		s := o.slotOf(&p.Defs[i])
		if s.kind != slotFill {
			p.need = max(p.need, s.value.end())
			if s.kind == slotSecondFromBase || s.kind == slotMultiFromBase || s.kind == slotMultiFromDword {
				p.need = max(p.need, s.base.end())
			}
		}
		p.slots = append(p.slots, s)
	}
	return nil
}

// slotOf works out Fill's share for def, in Fill's terms.
func (o *Object) slotOf(def *CounterDef) fillSlot {
	t := def.CounterType
	tb := o.times[t.TimeBase()&3]
	s := fillSlot{counter: engine.Counter{Type: t, Scale: def.DefaultScale, TimeBase: tb.f}, d: tb.d}
	var ok bool
	if def.CounterSize == 0 && t&sizeBits == sizeZero {
		s.value, ok = field{}, true // nothing to read: N = 0 (a load masked to nothing)
	} else {
		s.value, ok = fieldOf(def.CounterOffset, def.CounterSize)
	}
	if !ok {
		s.kind = slotFill
		return s
	}
	base, needs := t.Base()
	if !needs {
		return s
	}
	nt, nsize, noff, next := o.peekNext(def)
	switch {
	case base == engine.CounterMultiBase && next && nt == engine.CounterMultiBase:
		s.kind = slotMultiFromBase
		s.base, ok = fieldOf(noff, nsize)
	case base == engine.CounterMultiBase:
		s.kind = slotMultiFromDword
		off := uint64(def.CounterOffset) + uint64(def.CounterSize)
		s.base, ok = fieldOf(uint32(off), 4)
		ok = ok && off <= math.MaxUint32
	case !next || !nt.IsBase() || nt == engine.CounterMultiBase:
		s.kind = slotMissingBase
	default:
		s.kind = slotSecondFromBase
		s.base, ok = fieldOf(noff, nsize)
	}
	if !ok {
		s.kind = slotFill
	}
	return s
}

// Fill sets dst[i].Counter and dst[i].New for the plan's counter i, read
// from the counter block cb of one of its object's instances, exactly as
// Object.Fill(&dst[i], &p.Defs[i], cb) would, for every i below the
// shorter of len(dst) and len(p.Defs). It leaves HasOld and Old alone and
// allocates nothing. An error is the first one Object.Fill would return,
// with dst filled up to that counter.
func (p *Plan) Fill(dst []engine.Input, cb CounterBlock) error {
	n := min(len(dst), len(p.slots))
	b := cb.b
	if uint64(len(b)) < p.need {
		// A block too short for some value or base: Fill says which, or
		// reads the multi timers' missing DWORD as InvalidData.
		for i := range n {
			if err := p.obj.Fill(&dst[i], &p.Defs[i], cb); err != nil {
				return err
			}
		}
		return nil
	}
	for i := 0; i < n; {
		i += fillSlots(dst[i:n], p.slots[i:n], b, p.stamp)
		if i < n {
			// A slot that only Fill can do (fillSlots stopped there).
			if err := p.obj.Fill(&dst[i], &p.Defs[i], cb); err != nil {
				return err
			}
			i++
		}
	}
	return nil
}

// fillSlots fills dst[i] from slots[i] and b, which has room for every
// slot's reads, up to the first slotFill slot, and returns how many it
// filled. It calls nothing, so that its loop keeps everything in registers.
func fillSlots(dst []engine.Input, slots []fillSlot, b []byte, stamp int64) int {
	dst = dst[:len(slots)]
	for i := range slots {
		s := &slots[i]
		in := &dst[i]
		if s.kind == slotFill {
			return i
		}
		in.Counter = s.counter
		in.New.CStatus = 0
		in.New.TimeStamp = stamp
		in.New.FirstValue = s.value.read(b)
		in.New.SecondValue = s.d
		in.New.MultiCount = 0
		if s.kind == slotPlain {
			continue
		}
		switch s.kind {
		case slotSecondFromBase:
			in.New.SecondValue = s.base.read(b)
		case slotMultiFromBase:
			in.New.MultiCount = uint32(min(s.base.read(b), math.MaxUint32))
		case slotMultiFromDword:
			in.New.MultiCount = uint32(s.base.read(b))
		case slotMissingBase:
			in.New.SecondValue, in.New.CStatus = 0, engine.CStatusInvalidData
		}
	}
	return len(slots)
}
