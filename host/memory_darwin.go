//go:build darwin

package host

// adviseHuge does nothing on macOS (memory_linux.go).
func adviseHuge([]byte) {}
