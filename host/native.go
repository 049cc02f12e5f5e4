package host

import (
	"bytes"
	"errors"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/engine/query"
	"github.com/perfcalc/perfcalc/engine/relog"
	"github.com/perfcalc/perfcalc/internal/abi"
)

// Native has the methods of Engine, computed in the caller's process instead
// of the module: the reference that the Engine's tests compare with, and the
// way back from the sandbox in one line (both satisfy the same method set).
// Its zero value is ready to use, and it is safe for concurrent use.
//
// It runs the module's own record builders (package internal/abi) into a
// buffer that grows as needed, and reads the result as an Engine reads the
// module's: its results are the Engine's, bit for bit. Its errors are the
// native packages' own (a *engine.FormatError, a *query.MismatchError, …)
// whose texts the Engine's *Error values carry; refusals that the ABI makes
// itself (more than 2,097,152 records, a V2 block without its counter id,
// an every above 2^30) are *Error values with the module's code and text.
type Native struct{}

// Compute returns engine.Compute(in, opts).
func (Native) Compute(in *engine.Input, opts engine.Options) (engine.Result, error) {
	return engine.Compute(in, opts), nil
}

// ComputeBatch returns engine.ComputeBatch(in, opts, out).
func (Native) ComputeBatch(in []engine.Input, opts engine.Options, out []engine.Result) (int, error) {
	return engine.ComputeBatch(in, opts, out), nil
}

// build runs a Builder method into a growing buffer and reads its result.
func build(op string, run func(b *abi.Builder) error) (*Decoded, error) {
	b := abi.Builder{W: abi.NewGrowing()}
	if err := run(&b); err != nil {
		return nil, nativeError(op, err)
	}
	b.W.Finish(&b.Summary)
	var rd reader
	if _, bad := rd.page(b.W.Bytes()); bad != "" {
		return nil, errors.New("perfcalc host: " + op + ": " + bad) // a bug: the builders and the reader disagree
	}
	rd.d.Damage, rd.d.Breaks = b.Damage, b.Breaks
	return &rd.d, nil
}

// nativeError returns err, an *abi.Error as the *Error an Engine returns.
func nativeError(op string, err error) error {
	if e, ok := err.(*abi.Error); ok {
		return &Error{Op: op, Code: Code(e.Code), Detail: e.Detail, Text: e.Text}
	}
	return err
}

// DecodeV1 is Engine.DecodeV1 in the caller's process.
func (Native) DecodeV1(data, names []byte, opts engine.Options) (*Decoded, error) {
	return build("decode_v1", func(b *abi.Builder) error { return b.V1(data, names, opts&optionsMask) })
}

// DecodeV2 is Engine.DecodeV2 in the caller's process.
func (Native) DecodeV2(data []byte, cs V2Counterset, opts engine.Options) (*Decoded, error) {
	return build("decode_v2", func(b *abi.Builder) error {
		return b.V2(data, &abi.V2{RegInfo: cs.RegInfo, Strings: cs.Strings, IDs: cs.IDs}, opts&optionsMask)
	})
}

// DecodeNames is Engine.DecodeNames in the caller's process.
func (Native) DecodeNames(table []byte) (*Decoded, error) {
	return build("decode_names", func(b *abi.Builder) error { return b.Names(table) })
}

// DecodeBlg is Engine.DecodeBlg in the caller's process.
func (Native) DecodeBlg(log []byte, sel relog.Options) (*Decoded, error) {
	return build("decode_blg", func(b *abi.Builder) error { return b.Blg(log, nativeOptions(sel)) })
}

// RelogStats is Engine.RelogStats in the caller's process.
func (Native) RelogStats(log []byte, sel relog.Options) (*Decoded, error) {
	return build("relog_stats", func(b *abi.Builder) error { return b.Stats(log, nativeOptions(sel)) })
}

// RelogStatsPercentiles is Engine.RelogStatsPercentiles in the caller's
// process.
func (Native) RelogStatsPercentiles(log []byte, sel relog.Options) (*Decoded, error) {
	return build("relog_stats", func(b *abi.Builder) error { return b.StatsPercentiles(log, nativeOptions(sel)) })
}

// RelogText is Engine.RelogText in the caller's process (without the
// module's limit of 1 GiB).
func (Native) RelogText(log []byte, sel relog.Options, format relog.Format) ([]byte, error) {
	var text bytes.Buffer
	_, _, damage, err := abi.RelogText(&text, log, nativeOptions(sel), uint32(format))
	if err != nil {
		return nil, nativeError("relog_text", err)
	}
	return text.Bytes(), damage
}

// Query is Engine.Query in the caller's process.
func (Native) Query(dst []query.Value, cfg *QueryConfig, older, newer []byte) ([]query.Value, error) {
	q := cfg.abi()
	d, err := build("query", func(b *abi.Builder) error { return b.Query(older, newer, &q) })
	if err != nil {
		return dst, err
	}
	return appendValues(dst, d), nil
}

// QueryText is Engine.QueryText in the caller's process.
func (Native) QueryText(cfg *QueryConfig, older, newer []byte, tsv bool, digits int) ([]byte, error) {
	f, err := queryTextFormat(tsv, digits)
	if err != nil {
		return nil, err
	}
	q := cfg.abi()
	var text bytes.Buffer
	if err := abi.QueryText(&text, older, newer, &q, uint32(f)); err != nil {
		return nil, nativeError("query_text", err)
	}
	return text.Bytes(), nil
}

// abi returns cfg as abi.Query.
func (cfg *QueryConfig) abi() abi.Query {
	return abi.Query{Names: cfg.Names, RegInfo: cfg.RegInfo, Strings: cfg.Strings, IDs: cfg.IDs,
		CounterSet: cfg.CounterSet, Paths: cfg.Paths, Options: cfg.Options & optionsMask}
}

// ErrorCode returns the module's error code for an error of Native or
// Engine: an *Error's Code, or the code the module gives the native
// packages' errors (CodeTruncated, CodeMalformed, CodeUnsupported, else
// CodeInput); 0 for nil and for errors that are not about the input (a
// *FaultError, ErrClosed, New's errors).
func ErrorCode(err error) Code {
	var (
		e  *Error
		fe *FaultError
	)
	switch {
	case err == nil:
		return 0
	case errors.As(err, &e):
		return e.Code
	case errors.As(err, &fe), errors.Is(err, ErrClosed), errors.Is(err, ErrABIVersion), errors.Is(err, ErrModule):
		return 0
	}
	return Code(abi.CodeOf(err))
}
