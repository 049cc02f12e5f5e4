package host

import (
	"errors"
	"sync"

	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/abi"
)

// DecodeBlgParts is DecodeBlg with the log read in up to n parts at once,
// each by an instance of its own on a goroutine of its own (ABI.md,
// "Parts"): every instance reads the whole log's columns, then the rows of
// its part, and the parts' records are put one after the other. The result
// is DecodeBlg's, record for record. Parts are of at least 4 MiB
// (abi.MinPartBytes): a smaller log is read by one instance; the pool's
// size (Config.WithPoolSize) bounds the instances that run at once. Each
// instance holds the whole log in its memory. sel.PartFrom and PartTo must
// be 0.
func (e *Engine) DecodeBlgParts(log []byte, sel relog.Options, n int) (*Decoded, error) {
	parts, err := logParts(int64(len(log)), n, sel)
	if err != nil {
		return nil, err
	}
	ds := make([]*Decoded, len(parts))
	errs := inParts(parts, func(i int, part [2]int64) error {
		s := sel
		s.PartFrom, s.PartTo = part[0], part[1]
		var err error
		ds[i], err = e.DecodeBlg(log, s)
		return err
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	d := ds[0]
	for _, p := range ds[1:] {
		if d.Damage != nil {
			break // the log's rows end at its damage
		}
		d.Records = append(d.Records, p.Records...)
		d.Damage = p.Damage
	}
	return d, nil
}

// RelogTextParts is RelogText with the log read in up to n parts at once,
// as DecodeBlgParts reads it: the parts' texts one after the other, byte
// for byte RelogText's (its damage too).
func (e *Engine) RelogTextParts(log []byte, sel relog.Options, format relog.Format, n int) ([]byte, error) {
	parts, err := logParts(int64(len(log)), n, sel)
	if err != nil {
		return nil, err
	}
	texts := make([][]byte, len(parts))
	errs := inParts(parts, func(i int, part [2]int64) error {
		s := sel
		s.PartFrom, s.PartTo = part[0], part[1]
		var err error
		texts[i], err = e.RelogText(log, s, format)
		return err
	})
	var text []byte
	for i, t := range texts {
		var ge *Error
		if errs[i] != nil && !(errors.As(errs[i], &ge) && ge.Code == 0) {
			return nil, errs[i] // a failure, not a damage
		}
		text = append(text, t...)
		if errs[i] != nil {
			return text, errs[i] // the damage: the log's rows end there
		}
	}
	return text, nil
}

// minPartBytes is the least part of logParts (a variable for the tests).
var minPartBytes int64 = abi.MinPartBytes

// logParts divides a log of size bytes into up to n byte ranges of at
// least minPartBytes at 64 KiB bounds, [from, to] each (to 0: the end).
func logParts(size int64, n int, sel relog.Options) ([][2]int64, error) {
	if sel.PartFrom != 0 || sel.PartTo != 0 {
		return nil, &Error{Op: "log_part", Code: CodeArgument, Text: "perfcalc host: a log read in parts takes no part of its own"}
	}
	k := int64(max(1, min(n, abi.MaxReserve/abi.MinPartBytes)))
	if sel.Identity != identity.PDH {
		k = 1 // pairing by process reads the log in one piece (as the JS pool)
	}
	k = max(1, min(k, size/minPartBytes))
	bounds := []int64{0}
	for i := int64(1); i < k; i++ {
		if b := size * i / k &^ 0xffff; b > bounds[len(bounds)-1] {
			bounds = append(bounds, b)
		}
	}
	bounds = append(bounds, 0)
	parts := make([][2]int64, len(bounds)-1)
	for i := range parts {
		parts[i] = [2]int64{bounds[i], bounds[i+1]}
	}
	return parts, nil
}

// inParts runs read on every part, one goroutine each, and returns their
// errors in part order.
func inParts(parts [][2]int64, read func(i int, part [2]int64) error) []error {
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = read(i, p)
		}()
	}
	wg.Wait()
	return errs
}
