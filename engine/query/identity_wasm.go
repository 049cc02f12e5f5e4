//go:build wasm

package query

// identityBuilt is false in the WebAssembly module: Config.PID is ignored
// there (identity_native.go).
const identityBuilt = false
