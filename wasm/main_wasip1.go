package main

// main never runs in the reactor: with -buildmode=c-shared the module's
// entry point is _initialize, which initialises the Go runtime and the
// package and returns. The native build has its own main (native.go).
func main() {}
