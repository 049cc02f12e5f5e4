package collect

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/perfcalc/perfcalc/engine/perfdata"
	"github.com/perfcalc/perfcalc/tools/corpus"
)

// v1Corpus is ../shared/corpus/v1: 11 consecutive samples of 8 objects of
// one real machine, one PERF_DATA_BLOCK per object and sample, and the
// machine's "Counter 009" table.
type v1Corpus struct {
	samples []map[uint32][]byte // per sample: the blob of each object title index
	titles  []uint32            // the object title indexes, ascending
	names   []byte
}

var (
	corpusOnce sync.Once
	corpusData *v1Corpus
	corpusErr  error
)

// loadV1Corpus reads the corpus once (skipping the test without it).
func loadV1Corpus(tb testing.TB) *v1Corpus {
	tb.Helper()
	dir := corpus.Shared(tb, "v1")
	corpusOnce.Do(func() {
		c := &v1Corpus{}
		files, err := filepath.Glob(filepath.Join(dir, "s*_obj*.bin"))
		if err != nil || len(files) == 0 {
			corpusErr = errors.New("no sNN_objMMM.bin files")
			return
		}
		for _, f := range files {
			base := strings.TrimSuffix(filepath.Base(f), ".bin") // s03_obj230
			n, err1 := strconv.Atoi(base[1:3])
			t, err2 := strconv.Atoi(base[7:])
			if err1 != nil || err2 != nil {
				continue
			}
			for len(c.samples) <= n {
				c.samples = append(c.samples, map[uint32][]byte{})
			}
			b, err := os.ReadFile(f)
			if err != nil {
				corpusErr = err
				return
			}
			c.samples[n][uint32(t)] = b
			if !slices.Contains(c.titles, uint32(t)) {
				c.titles = append(c.titles, uint32(t))
			}
		}
		slices.Sort(c.titles)
		if c.names, err = os.ReadFile(filepath.Join(dir, "pal_counter_009.multisz")); err != nil {
			corpusErr = err
			return
		}
		corpusData = c
	})
	if corpusErr != nil {
		tb.Fatal(corpusErr)
	}
	return corpusData
}

// mergeBlobs joins one-object PERF_DATA_BLOCKs of one sample into one
// block, as RegQueryValueEx answers a query of several objects: the first
// block's header, then every object.
func mergeBlobs(blobs [][]byte) []byte {
	le := binary.LittleEndian
	if len(blobs) == 0 {
		return nil
	}
	hdr := le.Uint32(blobs[0][24:])
	out := append([]byte(nil), blobs[0][:hdr]...)
	n := uint32(0)
	for _, b := range blobs {
		h := le.Uint32(b[24:])
		total := le.Uint32(b[20:])
		out = append(out, b[h:total]...)
		n += le.Uint32(b[28:])
	}
	le.PutUint32(out[20:], uint32(len(out)))
	le.PutUint32(out[28:], n)
	return out
}

// fakeRegistry replays the corpus: Query answers with sample n's blobs of
// the objects asked for, merged in title order.
type fakeRegistry struct {
	c       *v1Corpus
	n       int
	local   []byte                       // the "system language" table, nil for none
	fail    map[uint32]bool              // objects whose provider fails the query
	drop    map[uint32]bool              // objects absent from the results
	edit    func(title uint32, b []byte) // changes an object's blob (a copy) before it is merged
	queries []string
	closed  bool
}

func (f *fakeRegistry) Query(dst []byte, name string) ([]byte, error) {
	f.queries = append(f.queries, name)
	var titles []uint32
	if strings.EqualFold(name, "Global") {
		titles = f.c.titles
	} else {
		for _, s := range strings.Fields(name) {
			t, err := strconv.ParseUint(s, 10, 32)
			if err != nil {
				return dst, errors.New("fake: bad query " + strconv.Quote(name))
			}
			titles = append(titles, uint32(t))
		}
		slices.Sort(titles)
	}
	var blobs [][]byte
	for _, t := range titles {
		if f.fail[t] {
			return dst, errors.New("fake: the provider of object " + strconv.Itoa(int(t)) + " failed")
		}
		b, ok := f.c.samples[f.n][t]
		if !ok || f.drop[t] {
			continue
		}
		if f.edit != nil {
			b = append([]byte(nil), b...)
			f.edit(t, b)
		}
		blobs = append(blobs, b)
	}
	if len(blobs) == 0 {
		// An empty block, as Windows answers for objects it lacks.
		blobs = [][]byte{emptyBlock(f.c.samples[f.n][f.c.titles[0]])}
	}
	return append(dst, mergeBlobs(blobs)...), nil
}

// emptyBlock returns b's header alone, with no objects.
func emptyBlock(b []byte) []byte {
	le := binary.LittleEndian
	h := le.Uint32(b[24:])
	out := append([]byte(nil), b[:h]...)
	le.PutUint32(out[20:], h)
	le.PutUint32(out[28:], 0)
	return out
}

func (f *fakeRegistry) NameTable(local bool) ([]byte, error) {
	if local {
		if f.local == nil {
			return nil, errors.New("fake: no local table")
		}
		return f.local, nil
	}
	return f.c.names, nil
}

func (f *fakeRegistry) Close() error { f.closed = true; return nil }

// fakeClock is a clock whose sleeps return at once, moving time forward,
// and whose collections take work each.
type fakeClock struct {
	t      time.Time
	wakes  []time.Time
	cancel func() // called at the wake-up number cancelAt
	at     int
}

func (c *fakeClock) now() time.Time { return c.t }

func (c *fakeClock) sleepUntil(ctx context.Context, t time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if t.After(c.t) {
		c.t = t
	}
	c.wakes = append(c.wakes, t)
	if c.cancel != nil && len(c.wakes) == c.at {
		c.cancel()
		return ctx.Err()
	}
	return nil
}

var _ = perfdata.Parse
