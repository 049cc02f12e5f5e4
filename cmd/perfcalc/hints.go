package main

import (
	"errors"
	"fmt"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/query"
)

// This file holds what the capture commands say about the mistakes a new
// user makes: which file is not a capture, why no counter matches, and
// captures given in the wrong order.

// captureError names the capture that a query failed on: each capture is
// queried alone (as a first sample), and the first that fails alone is
// named. An error of the pair (captures that do not match) is returned as
// it is: it says which capture has what.
func captureError(q *query.Query, names []string, older, newer []byte, err error) error {
	var m *query.MismatchError
	if errors.As(err, &m) {
		return err
	}
	for i, data := range [][]byte{older, newer} {
		if _, e := q.Run(nil, nil, data); e != nil {
			return fmt.Errorf("%s: %w", names[i], e)
		}
	}
	return err
}

// noMatch is the error for -c patterns that match no counter of a capture.
// Without a name table, a V1 capture names objects and counters by their
// index: the error says so when a pattern names them in words.
func noMatch(name string, paths pathList, kind captureKind, haveNames bool) error {
	msg := "no counter of " + name + " matches " + paths.String()
	named := false
	for _, p := range paths {
		if p.Object != "" && p.Object[0] != '#' {
			named = true
		}
	}
	if kind == kindV1 && !haveNames && named {
		msg += `: without --names, objects and counters are named by their index, as in \#238(*)\*; give the name table with --names TABLE, or see the paths with perfcalc paths ` + name
	}
	return errors.New(msg)
}

// orderNote explains the NegativeDenominator values of captures whose
// newer is not newer: given in the wrong order, or the same time stamp
// twice. It returns "" when no value needs the note.
func orderNote(vals []query.Value, names []string, older, newer []byte, kind captureKind) string {
	bad := 0
	for i := range vals {
		if vals[i].Status == engine.NegativeDenominator {
			bad++
		}
	}
	o, n := query.CaptureStamp(older), query.CaptureStamp(newer)
	if bad == 0 || o.UTC <= 0 || n.UTC <= 0 {
		return ""
	}
	switch {
	case n.UTC < o.UTC:
		return fmt.Sprintf("%s was captured before %s, so the values that need two samples are NegativeDenominator: give the older capture first (perfcalc values %s %s)", names[1], names[0], names[1], names[0])
	case n.UTC == o.UTC:
		return fmt.Sprintf("%s and %s have the same time stamp (the same capture twice?), so the values that need two samples are NegativeDenominator", names[0], names[1])
	}
	return ""
}
