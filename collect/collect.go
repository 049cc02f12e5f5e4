package collect

import (
	"context"
	"errors"
	"os"
	"strconv"
	"time"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/counterpath"
	"github.com/perfcalc/perfcalc/engine/identity"
	"github.com/perfcalc/perfcalc/engine/query"
)

// Kind names one of the three live sources.
type Kind uint8

// The live sources.
const (
	// Registry is V1: RegQueryValueEx(HKEY_PERFORMANCE_DATA, …).
	Registry Kind = iota
	// V2 is PerfLib V2's consumer functions (PerfQueryCounterData).
	V2
	// PDH is PDH's raw values (PdhGetRawCounterArray).
	PDH
)

var kindNames = [...]string{"registry", "v2", "pdh"}

// String returns the kind's name as ParseKind reads it: registry, v2, pdh.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// ParseKind returns the kind named "registry" (or "v1"), "v2" or "pdh".
func ParseKind(name string) (Kind, error) {
	switch name {
	case "registry", "v1":
		return Registry, nil
	case "v2", "perflib":
		return V2, nil
	case "pdh":
		return PDH, nil
	}
	return 0, errors.New("collect: unknown source " + strconv.Quote(name) + " (want registry, v2 or pdh)")
}

// ErrNeedsWindows is returned by Open on systems other than Windows: live
// counters exist only there. Recorded captures are read everywhere by
// package query (perfcalc values) and .blg logs by package relog
// (perfcalc relog).
var ErrNeedsWindows = errors.New("collect: live collection needs Windows")

// Config is what a Collector collects and how.
type Config struct {
	// Paths selects counters by PDH counter path, with wildcards in the
	// instance and the counter (\Processor(*)\% Processor Time,
	// \Process(svchost#*)\*). Object and counter names may be English or,
	// for the registry and V2 sources, in the system's language. None
	// selects every counter of every object (the registry's "Global"
	// objects; every counterset for V2); PDH needs paths.
	Paths []counterpath.Path
	// Options are the engine's options (engine.Wrap32, engine.Cap100, …).
	// The zero value computes relog's values: no cap, no scaling.
	Options engine.Options
	// LocalNames names objects and counters in the system's language
	// ("Counter" of HKEY_PERFORMANCE_NLSTEXT, the counterset's localized
	// strings) instead of English, as typeperf does on a localized
	// system. The PDH source names counters as PDH returns them.
	LocalNames bool
	// SaveDir, when not empty, is a folder into which every raw capture
	// is written as it is collected, with the name tables and
	// registrations needed to recompute it offline (see Collector.Save).
	SaveDir string
	// Identity is how the registry source pairs instances between
	// samples: by name (identity.PDH, the zero value), or Process and
	// Thread instances by process and thread ID (identity.PID, as
	// query.Config.Identity: a series per process, named name:pid). The V2
	// source's Process V2 counter set names its instances name:pid
	// already; the PDH source pairs by name, as PDH does.
	Identity identity.Mode
}

// Sample is one collection: the values computed between it and the
// sample before it.
type Sample struct {
	// Index is the sample's number, from 0 (the first sample, whose
	// 2-sample counters answer engine.NewData).
	Index int
	// Time is the moment of the collection, on the collector's clock.
	Time time.Time
	// Missed is the number of ticks of Run's schedule skipped just before
	// this sample because collecting took longer than the interval.
	Missed int
	// Values are the computed counters, in the source's order (objects,
	// instances, counters); their Paths are valid until the next
	// collection into the same Sample.
	Values []query.Value
	// Errors are the objects (counter sets, counters) that failed in
	// this sample, each an *ObjectError; the others were collected.
	Errors []error
	// IdentityBreaks is, with Config.Identity pid, the number of instance names
	// that name another process (or thread) than in the sample before
	// (query.Query.IdentityBreaks), and IdentityNotes the objects paired
	// by name for want of their ID counters (query.Query.IdentityNotes).
	IdentityBreaks int
	IdentityNotes  []string
	// TimeBases holds, for each of Values, the frequency of its counter's
	// time base (engine.Counter.TimeBase), which a log of the raw values
	// needs to compute them again (perfcalc watch -f bin): from the
	// registry and PDH sources; nil from the v2 source, which does not
	// give it.
	TimeBases []int64
}

// ObjectError is one object, counter set or counter that could not be
// collected or computed in a sample. The others of the sample are not
// affected.
type ObjectError struct {
	Object string // the object's name (or "#<title index>"), the counter set's, or the PDH counter path
	Err    error
}

// Error returns "collect: object NAME: reason".
func (e *ObjectError) Error() string {
	return "collect: " + strconv.Quote(e.Object) + ": " + e.Err.Error()
}

// Unwrap returns the reason.
func (e *ObjectError) Unwrap() error { return e.Err }

// ErrMissing is wrapped by the ObjectError of an object that a sample
// lacks (its provider failed or was unloaded).
var ErrMissing = errors.New("absent from this sample")

// backend is one source's collection logic.
type backend interface {
	// collect appends the sample's values and errors to s.
	collect(s *Sample) error
	// save writes the capture just collected into dir, as sample seq.
	save(dir string, seq int) error
	close() error
}

// Collector samples live counters from one source and computes them with
// perfcalc's engine. It is not safe for concurrent use.
type Collector struct {
	b     backend
	cfg   Config
	clock clock
	n     int // samples collected
}

func newCollector(b backend, cfg Config) (*Collector, error) {
	if cfg.SaveDir != "" {
		if err := os.MkdirAll(cfg.SaveDir, 0o755); err != nil {
			b.close()
			return nil, err
		}
	}
	return &Collector{b: b, cfg: cfg, clock: realClock{}}, nil
}

// Collect takes one sample from the source and computes every selected
// counter against the previous sample, reusing s's slices: once they
// have grown, a sample like the previous ones allocates nothing on the
// registry source. Objects that fail are listed in s.Errors; Collect
// returns an error only when the source gave nothing at all, or when
// Config.SaveDir cannot be written.
func (c *Collector) Collect(s *Sample) error {
	s.Index = c.n
	s.Time = c.clock.now()
	s.Missed = 0
	s.Values = s.Values[:0]
	s.Errors = s.Errors[:0]
	s.IdentityBreaks, s.IdentityNotes = 0, s.IdentityNotes[:0]
	s.TimeBases = s.TimeBases[:0]
	err := c.b.collect(s)
	c.n++
	if err != nil {
		return err
	}
	if c.cfg.SaveDir != "" {
		return c.b.save(c.cfg.SaveDir, s.Index)
	}
	return nil
}

// Run collects on a schedule: when the collector has not collected yet,
// it first takes a priming sample at once, which is not handed to each
// (so that every sample handed to each has its rates); then it collects
// at start + k·interval, k = 1, 2, …, and calls each with the sample. The
// schedule does not drift: a slow collection delays neither the next tick
// nor any later one, and a tick that has passed entirely while collecting
// is skipped (Sample.Missed counts them). Run returns when n samples have
// been handed to each (n ≤ 0: no limit), when ctx is done (returning
// nil: a cancellation is the normal end of an endless run), or with the
// first error of Collect or each.
func (c *Collector) Run(ctx context.Context, interval time.Duration, n int, each func(*Sample) error) error {
	if interval <= 0 {
		return errors.New("collect: the interval must be positive")
	}
	var s Sample
	if c.n == 0 {
		if err := c.Collect(&s); err != nil {
			return err
		}
	}
	start := c.clock.now()
	for k, handed := int64(1), 0; n <= 0 || handed < n; k++ {
		next := start.Add(time.Duration(k) * interval)
		// Ticks that passed while collecting are skipped.
		missed := 0
		if now := c.clock.now(); now.After(next) {
			skip := int64(now.Sub(next)/interval) + 1
			k += skip
			missed = int(skip)
			next = start.Add(time.Duration(k) * interval)
		}
		if err := c.clock.sleepUntil(ctx, next); err != nil {
			return nil
		}
		if err := c.Collect(&s); err != nil {
			return err
		}
		s.Missed = missed
		if err := each(&s); err != nil {
			return err
		}
		handed++
	}
	return nil
}

// Close releases the source (RegCloseKey, PdhCloseQuery,
// PerfCloseQueryHandle).
func (c *Collector) Close() error { return c.b.close() }

// clock is the collector's time, replaced in tests.
type clock interface {
	now() time.Time
	// sleepUntil returns at t, or with ctx's error when ctx is done first.
	sleepUntil(ctx context.Context, t time.Time) error
}

type realClock struct{}

func (realClock) now() time.Time { return time.Now() }

func (realClock) sleepUntil(ctx context.Context, t time.Time) error {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// seqName returns prefix, the sample number in six digits, and ext:
// "v1-000003.bin".
func seqName(prefix string, seq int, ext string) string {
	s := strconv.Itoa(seq)
	for len(s) < 6 {
		s = "0" + s
	}
	return prefix + s + ext
}
