// Package blgedit edits real perfmon logs (.blg) in place for tests: a
// process that exits mid-log (ExitInstance), a counter set to a value
// (SetCounter). It reads them with
// engine/blg, which package blgbuild's tests must not import through it.
package blgedit

import (
	"bytes"
	"encoding/binary"
	"errors"

	"github.com/perfcalc/perfcalc/engine/blg"
	"github.com/perfcalc/perfcalc/engine/nametable"
	"github.com/perfcalc/perfcalc/engine/perfdata"
)

// ExitInstance returns a copy of a whole-object log (a Vista-era .blg of
// PERF_DATA_BLOCKs, such as PAL_SamplePerfmonLog.blg) in which the
// instance named inst (its PDH name, "svchost#2") of the object named
// object (through the log's name table) is absent from the samples of
// index from onwards, as if its process had exited: the instances after it
// move up (PDH then numbers the next duplicates one less), NumInstances
// is one less and the freed bytes at the object's end are zeros, so that
// every size and record of the log stays as it was. It returns the number
// of samples changed. A block that spans several events is found by its
// pieces: the events' headers between them are left as they are.
func ExitInstance(log []byte, object, inst string, from int) ([]byte, int, error) {
	return editBlocks(log, from, func(data []byte, names *nametable.Table, nm *perfdata.Namer) ([]byte, bool, error) {
		return removeInstance(data, names, nm, object, inst)
	})
}

// SetCounter returns a copy of a whole-object log (as ExitInstance's) in
// which the counter named counter of the instance named inst (its PDH
// name) of the object named object holds value in every sample from the
// sample of index from onwards (a 4-byte counter its low 32 bits), every
// size of the log as it was: two svchost with one ID Process, as in a
// damaged log. It returns the number of samples changed.
func SetCounter(log []byte, object, inst, counter string, value uint64, from int) ([]byte, int, error) {
	return editBlocks(log, from, func(data []byte, names *nametable.Table, nm *perfdata.Namer) ([]byte, bool, error) {
		return setCounter(data, names, nm, object, inst, counter, value)
	})
}

// editBlocks returns a copy of a whole-object log whose blocks, from the
// sample of index from onwards, edit has rewritten (the same length; ok
// false leaves a block as it is), and the number of blocks rewritten.
func editBlocks(log []byte, from int, edit func(data []byte, names *nametable.Table, nm *perfdata.Namer) ([]byte, bool, error)) ([]byte, int, error) {
	br, err := blg.NewReader(bytes.NewReader(log), int64(len(log)))
	if err != nil {
		return nil, 0, err
	}
	names, err := nametable.Parse(br.NameTable())
	if err != nil {
		return nil, 0, err
	}
	out := bytes.Clone(log)
	changed := 0
	var nm perfdata.Namer
	for br.Next() {
		s := br.Sample()
		if s.Index < from {
			continue
		}
		for _, b := range s.Blocks {
			edited, ok, err := edit(b.Data, names, &nm)
			if err != nil {
				return nil, 0, err
			}
			if !ok {
				continue
			}
			if !patch(out, b.Data, edited) {
				return nil, 0, errors.New("blgedit: the block of sample " + itoa(s.Index) + " not found in the log")
			}
			changed++
		}
	}
	return out, changed, br.Err()
}

// setCounter is SetCounter's edit of one V1 PERF_DATA_BLOCK; false when
// the block does not hold the instance's counter.
func setCounter(data []byte, names *nametable.Table, nm *perfdata.Namer, object, inst, counter string, value uint64) ([]byte, bool, error) {
	blk, err := perfdata.Parse(data)
	if err != nil {
		return nil, false, err
	}
	objs := blk.Objects()
	for objs.Next() {
		obj := objs.Object()
		t, ok := names.Lookup(obj.ObjectNameTitleIndex)
		if !ok || !t.EqualFold(object) || obj.NumInstances <= 0 {
			continue
		}
		var def *perfdata.CounterDef
		defs := obj.Counters()
		for defs.Next() {
			if n, ok := names.Lookup(defs.Counter().CounterNameTitleIndex); ok && n.EqualFold(counter) {
				d := *defs.Counter()
				def = &d
				break
			}
		}
		if err := defs.Err(); err != nil || def == nil {
			return nil, false, err
		}
		inames, err := nm.Names(&blk, obj)
		if err != nil {
			return nil, false, err
		}
		insts := obj.Instances()
		for k := 0; insts.Next(); k++ {
			in := insts.Instance()
			if k >= len(inames) || string(inames[k].AppendTo(nil)) != inst {
				continue
			}
			at := in.CounterBlock.Offset + int(def.CounterOffset)
			if def.CounterOffset+def.CounterSize > in.CounterBlock.ByteLength || (def.CounterSize != 4 && def.CounterSize != 8) {
				return nil, false, errors.New("blgedit: the counter is outside its counter block")
			}
			edited := bytes.Clone(data)
			if def.CounterSize == 4 {
				le.PutUint32(edited[at:], uint32(value))
			} else {
				le.PutUint64(edited[at:], value)
			}
			return edited, true, nil
		}
		return nil, false, insts.Err()
	}
	return nil, false, objs.Err()
}

// patch finds data in log, in one piece or in the pieces of the events it
// spans (the next piece within 64 KiB of the last), and writes edited (of
// the same length) over it. It reports whether it found data.
func patch(log, data, edited []byte) bool {
	const probe = 48
	at := bytes.Index(log, data[:min(probe, len(data))])
	for off := 0; at >= 0; {
		n := 0
		for off+n < len(data) && at+n < len(log) && log[at+n] == data[off+n] {
			n++
		}
		copy(log[at:at+n], edited[off:off+n])
		off += n
		if off == len(data) {
			return true
		}
		from := at + n
		window := log[from:min(len(log), from+1<<16)]
		k := bytes.Index(window, data[off:min(off+probe, len(data))])
		if k < 0 {
			return false
		}
		at = from + k
	}
	return false
}

// RemoveInstance returns a copy of a V1 PERF_DATA_BLOCK (a
// HKEY_PERFORMANCE_DATA capture) without the instance named inst (its PDH
// name) of the object named object through names, laid out as
// ExitInstance lays it out (the same size); false when the block does not
// hold it.
func RemoveInstance(data []byte, names *nametable.Table, object, inst string) ([]byte, bool, error) {
	var nm perfdata.Namer
	return removeInstance(data, names, &nm, object, inst)
}

// removeInstance is RemoveInstance with a Namer of the caller's.
func removeInstance(data []byte, names *nametable.Table, nm *perfdata.Namer, object, inst string) ([]byte, bool, error) {
	blk, err := perfdata.Parse(data)
	if err != nil {
		return nil, false, err
	}
	objs := blk.Objects()
	for objs.Next() {
		obj := objs.Object()
		t, ok := names.Lookup(obj.ObjectNameTitleIndex)
		if !ok || !t.EqualFold(object) || obj.NumInstances <= 0 {
			continue
		}
		inames, err := nm.Names(&blk, obj)
		if err != nil {
			return nil, false, err
		}
		var starts []int
		target := -1
		insts := obj.Instances()
		for k := 0; insts.Next(); k++ {
			in := insts.Instance()
			starts = append(starts, in.Offset)
			if k < len(inames) && string(inames[k].AppendTo(nil)) == inst {
				target = k
			}
		}
		if err := insts.Err(); err != nil {
			return nil, false, err
		}
		if target < 0 {
			return nil, false, nil
		}
		objEnd := obj.Offset + int(obj.TotalByteLength)
		// The instances end where the last one's counter block ends.
		last := starts[len(starts)-1]
		lastDef := int(le.Uint32(data[last:]))
		instEnd := last + lastDef + int(le.Uint32(data[last+lastDef:]))
		start, end := starts[target], instEnd
		if target+1 < len(starts) {
			end = starts[target+1]
		}
		if instEnd > objEnd || end > instEnd {
			return nil, false, errors.New("blgedit: instances outside their object")
		}
		edited := bytes.Clone(data)
		n := copy(edited[start:], data[end:instEnd])
		clear(edited[start+n : instEnd])
		// NumInstances follows NumCounters and DefaultCounter in
		// PERF_OBJECT_TYPE, whose pointer fields make its offset vary.
		var triple [12]byte
		le.PutUint32(triple[0:], obj.NumCounters)
		le.PutUint32(triple[4:], uint32(obj.DefaultCounter))
		le.PutUint32(triple[8:], uint32(obj.NumInstances))
		hdr := data[obj.Offset : obj.Offset+int(obj.HeaderLength)]
		i := bytes.Index(hdr, triple[:])
		if i < 0 {
			return nil, false, errors.New("blgedit: NumInstances not found in PERF_OBJECT_TYPE")
		}
		le.PutUint32(edited[obj.Offset+i+8:], uint32(obj.NumInstances-1))
		return edited, true, nil
	}
	return nil, false, objs.Err()
}

// le reads and writes the little-endian fields of PERF_DATA_BLOCKs.
var le = binary.LittleEndian

// itoa formats a small non-negative number.
func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
