//go:build !wasm

package engine

// foldRaw is how a StatisticsFold holds a sample: a RawCounter without its
// time stamp, which no formula reads (24 bytes, not 40: three of them per
// column of a log).
type foldRaw struct {
	cstatus, multi uint32
	first, second  uint64
}

func (r *foldRaw) raw() RawCounter {
	return RawCounter{CStatus: r.cstatus, FirstValue: r.first, SecondValue: r.second, MultiCount: r.multi}
}

// set makes r the sample s.
func (r *foldRaw) set(s *RawCounter) {
	r.cstatus, r.multi, r.first, r.second = s.CStatus, s.MultiCount, s.FirstValue, s.SecondValue
}

// old sets the older sample of a computation, d, to r.
func (r *foldRaw) old(d *RawCounter) {
	d.CStatus, d.MultiCount, d.FirstValue, d.SecondValue = r.cstatus, r.multi, r.first, r.second
}

// foldScratch is false: StatisticsFold.AddRaw computes in an Input on its
// stack (folds run on several goroutines at once).
const foldScratch = false

// scratchInput is not used natively (foldScratch).
var scratchInput Input
