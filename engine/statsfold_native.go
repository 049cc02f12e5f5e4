//go:build !wasm

package engine

// foldRaw is how a StatisticsFold holds a sample: a RawCounter without its
// time stamp, which no formula reads (24 bytes, not 40: three of them per
// column of a log).
type foldRaw struct {
	cstatus, multi uint32
	first, second  uint64
}

func toFold(r *RawCounter) foldRaw {
	return foldRaw{r.CStatus, r.MultiCount, r.FirstValue, r.SecondValue}
}

func (r *foldRaw) raw() RawCounter {
	return RawCounter{CStatus: r.cstatus, FirstValue: r.first, SecondValue: r.second, MultiCount: r.multi}
}
