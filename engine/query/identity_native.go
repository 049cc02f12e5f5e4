//go:build !wasm

package query

// identityBuilt says whether Config.PID is built in: natively, not in the
// WebAssembly module (identity_wasm.go), whose size budget its code
// exceeds; there Config.PID is ignored and instances are paired by name.
const identityBuilt = true
