//go:build linux || darwin

package host

import (
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// mmapAllocator backs each instance's linear memory with its own anonymous
// mapping of the memory's maximum size, reserved but not committed: pages
// cost memory only once the module writes them, growing never copies (the
// default, a Go slice grown by append, copies the whole memory and leaves
// the old one to the garbage collector, which makes every page of both
// resident), and closing an instance returns its pages to the system at
// once (munmap).
var mmapAllocator experimental.MemoryAllocator = experimental.MemoryAllocatorFunc(func(capacity, max uint64) experimental.LinearMemory {
	if max == 0 || max > 1<<32 || uint64(int(max)) != max {
		return &sliceMemory{}
	}
	b, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return &sliceMemory{}
	}
	adviseHuge(b)
	return &mmapMemory{b: b}
})

type mmapMemory struct{ b []byte }

func (m *mmapMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.b)) {
		return nil
	}
	return m.b[:size:size]
}

func (m *mmapMemory) Free() {
	if m.b != nil {
		syscall.Munmap(m.b)
		m.b = nil
	}
}
