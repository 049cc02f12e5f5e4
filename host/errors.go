package host

import (
	"context"
	"errors"
	"strconv"

	"github.com/perfcalc/perfcalc/engine"
	"github.com/perfcalc/perfcalc/internal/abi"
)

// Code is an error code of the module's ABI (ABI.md, "Errors").
type Code int32

// The module's error codes.
const (
	CodePanic       Code = abi.CodePanic       // perfcalc panicked (a bug); the instance is replaced anyway
	CodeBounds      Code = abi.CodeBounds      // an offset or length lies outside the module's buffers
	CodeArgument    Code = abi.CodeArgument    // a reserved bit, an unknown format, an argument out of range
	CodeSpace       Code = abi.CodeSpace       // the result does not fit the module's output buffer
	CodeTruncated   Code = abi.CodeTruncated   // the input is truncated (engine.ErrTruncated)
	CodeMalformed   Code = abi.CodeMalformed   // the input is malformed (engine.ErrMalformed)
	CodeUnsupported Code = abi.CodeUnsupported // well-formed input that perfcalc does not decode (engine.ErrUnsupported)
	CodeLimit       Code = abi.CodeLimit       // the input asks for more than the module allows
	CodeInput       Code = abi.CodeInput       // any other refusal of the input
	CodeAbsent      Code = abi.CodeAbsent      // a V2 block does not name its counter and no ids were given
)

var codeNames = [...]string{"", "Panic", "Bounds", "Argument", "Space", "Truncated", "Malformed", "Unsupported", "Limit", "Input", "Absent"}

// String returns the code's name as ABI.md writes it without "Err"
// (Malformed, …), or its number.
func (c Code) String() string {
	if c < 0 && int(-c) < len(codeNames) {
		return codeNames[-c]
	}
	return strconv.Itoa(int(c))
}

// Error is an error that the module reported: its code, the number that
// completes it (last_detail: the index of a bad request, the bytes a result
// needs, the V2 block without counter ids) and its text.
//
// The text is the one that perfcalc's native packages give for the same
// input (for example a *engine.FormatError's), and Error returns it as is;
// Unwrap returns engine.ErrTruncated, engine.ErrMalformed or
// engine.ErrUnsupported for those codes, so errors.Is works as with the
// native packages.
type Error struct {
	Op     string // the export, e.g. "decode_v1"
	Code   Code   // 0 when the ABI carries only a text (the damage of a .blg log)
	Detail uint32
	Text   string
}

// Error returns the module's text, or "perfcalc: <op>: <code>" when it gave
// none.
func (e *Error) Error() string {
	if e.Text != "" {
		return e.Text
	}
	return "perfcalc: " + e.Op + ": error " + e.Code.String()
}

// Unwrap returns the engine's sentinel error for CodeTruncated,
// CodeMalformed and CodeUnsupported, and nil otherwise.
func (e *Error) Unwrap() error {
	switch e.Code {
	case CodeTruncated:
		return engine.ErrTruncated
	case CodeMalformed:
		return engine.ErrMalformed
	case CodeUnsupported:
		return engine.ErrUnsupported
	}
	return nil
}

// Fault says why an instance of the module failed.
type Fault uint8

// The faults. After any of them the instance is discarded and replaced.
const (
	Trap        Fault = iota + 1 // a WebAssembly trap (unreachable, out-of-bounds access, …) or a Go runtime fatal error
	Panic                        // a Go panic that the module did not recover
	OutOfMemory                  // the instance hit the memory limit (Config.WithMemoryLimitPages)
	Timeout                      // the call ran past Config.WithCallTimeout
	Exit                         // the module exited (proc_exit) or was closed
	Protocol                     // the module's result broke the ABI (a bad header, an offset outside its buffer)
)

var faultNames = [...]string{"", "trap", "panic", "out of memory", "timeout", "exit", "protocol violation"}

// String returns the fault's name ("trap", "out of memory", …).
func (f Fault) String() string {
	if int(f) < len(faultNames) && f > 0 {
		return faultNames[f]
	}
	return "fault " + strconv.Itoa(int(f))
}

// FaultError reports a call whose instance failed: the instance was
// discarded and the Engine keeps serving with a new one. It carries what
// the module wrote to its standard error (a Go panic's message and stack,
// "runtime: out of memory", …), cut to a few KiB.
type FaultError struct {
	Op     string // the export that was running
	Fault  Fault
	Stderr string // the module's standard error during the instance's life
	Err    error  // wazero's error, or the violation
}

// Error returns, for example,
//
//	perfcalc host: decode_v1: out of memory (instance discarded): wasm error: unreachable: runtime: out of memory: …
func (e *FaultError) Error() string {
	s := "perfcalc host: " + e.Op + ": " + e.Fault.String() + " (instance discarded)"
	if e.Err != nil {
		s += ": " + firstLine(e.Err.Error()) // wazero appends a wasm stack trace
	}
	if e.Stderr != "" {
		s += ": " + firstLine(e.Stderr)
	}
	return s
}

// Unwrap returns the underlying error and, for a Timeout,
// context.DeadlineExceeded.
func (e *FaultError) Unwrap() []error {
	if e.Fault == Timeout {
		return []error{e.Err, context.DeadlineExceeded}
	}
	return []error{e.Err}
}

func firstLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}

// Errors of the Engine itself.
var (
	// ErrClosed is returned by calls on an Engine after Close.
	ErrClosed = errors.New("perfcalc host: engine closed")
	// ErrABIVersion is wrapped by New's error for a module whose
	// abi_version is not ABIVersion.
	ErrABIVersion = errors.New("perfcalc host: ABI version mismatch")
	// ErrModule is wrapped by New's error for a module that is not a
	// perfcalc module: it lacks an export, or an export has another
	// signature.
	ErrModule = errors.New("perfcalc host: not a perfcalc module")
)

// versionError reports a module that speaks another ABI version.
type versionError struct{ have uint32 }

func (e *versionError) Error() string {
	return "perfcalc host: the module speaks ABI version " + strconv.FormatUint(uint64(e.have), 10) +
		", this package speaks " + strconv.Itoa(ABIVersion)
}

func (e *versionError) Unwrap() error { return ErrABIVersion }

// moduleError reports a missing or mistyped export.
type moduleError struct{ export, why string }

func (e *moduleError) Error() string {
	return "perfcalc host: not a perfcalc module: export " + strconv.Quote(e.export) + " " + e.why
}

func (e *moduleError) Unwrap() error { return ErrModule }
