//go:build !windows

package collect

// OpenRegistry returns ErrNeedsWindows: the registry's performance data
// exists only on Windows.
func OpenRegistry() (RegistrySource, error) { return nil, ErrNeedsWindows }

// OpenPerfLib returns ErrNeedsWindows: PerfLib V2 exists only on Windows.
func OpenPerfLib() (PerfLibSource, error) { return nil, ErrNeedsWindows }

// OpenPDH returns ErrNeedsWindows: PDH exists only on Windows.
func OpenPDH() (PDHSource, error) { return nil, ErrNeedsWindows }
