//go:build !(linux || darwin)

package host

import "github.com/tetratelabs/wazero/experimental"

// mmapAllocator is nil where perfcalc maps no memory itself: wazero's own
// allocator (a Go slice) backs the instances.
var mmapAllocator experimental.MemoryAllocator
