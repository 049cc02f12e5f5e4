package main

// main never runs in the reactor: with -buildmode=c-shared the module's
// entry point is _initialize, which initialises the Go runtime and the
// package and returns. The native build (the package's tests call the
// exports directly) does nothing either: the native reference that the
// hosts' tests compare the module with is tools/wasmref.
func main() {}
