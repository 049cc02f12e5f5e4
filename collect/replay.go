package collect

import "errors"

// ErrReplayDone is returned by a replayed source after its last capture.
var ErrReplayDone = errors.New("collect: no more recorded captures")

// ReplayRegistry returns a RegistrySource that answers each Query with
// the next of blobs (recorded PERF_DATA_BLOCKs, such as the v1-NNNNNN.bin
// files of Config.SaveDir), whatever the query, and ErrReplayDone after
// the last; NameTable returns names (the English "Counter 009" table) and
// fails for the local table. With it, code built on a Collector runs and
// is tested on any OS.
func ReplayRegistry(blobs [][]byte, names []byte) RegistrySource {
	return &replayRegistry{blobs: blobs, names: names}
}

type replayRegistry struct {
	blobs [][]byte
	names []byte
	n     int
}

func (r *replayRegistry) Query(dst []byte, name string) ([]byte, error) {
	if r.n >= len(r.blobs) {
		return dst, ErrReplayDone
	}
	b := r.blobs[r.n]
	r.n++
	return append(dst, b...), nil
}

func (r *replayRegistry) NameTable(local bool) ([]byte, error) {
	if local || r.names == nil {
		return nil, errors.New("collect: the replayed source has no such name table")
	}
	return r.names, nil
}

func (r *replayRegistry) Close() error { return nil }
