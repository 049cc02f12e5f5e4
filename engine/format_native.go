//go:build !wasm

package engine

// fastFormat: AppendFloat prints through its fast path, formatG.
const fastFormat = true
