// Command wasip1exec runs a Go wasip1 command module (a `go test` binary) in
// wazero, with the whole file system mounted, the arguments and the
// environment passed, and the module's exit status as its own. It is the
// runner of the module's Go tests:
//
//	GOOS=wasip1 GOARCH=wasm go test -exec "$(go env GOPATH)/bin/wasip1exec" ./wasm
//
// (make wasm-test builds it into a temporary folder first). It replaces a
// runner on Node's WASI, which crashed at exit in about one run of three
// (issue 26, item 11): wazero is the runtime the project's host already
// depends on.
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"os"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"
)

func main() {
	if len(os.Args) < 2 {
		os.Stderr.WriteString("usage: wasip1exec MODULE.wasm [ARG...]\n")
		os.Exit(2)
	}
	os.Exit(run(os.Args[1], os.Args[2:]))
}

// run executes the module at file with args and returns its exit status
// (1 with a message on standard error where it cannot be run).
func run(file string, args []string) int {
	bin, err := os.ReadFile(file)
	if err != nil {
		return fail(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	cwd, err := os.Getwd()
	if err != nil {
		return fail(err)
	}
	cfg := wazero.NewModuleConfig().
		WithArgs(append([]string{file}, args...)...).
		WithStdin(os.Stdin).WithStdout(os.Stdout).WithStderr(os.Stderr).
		WithFSConfig(wazero.NewFSConfig().WithDirMount("/", "/")).
		WithSysWalltime().WithSysNanotime().WithSysNanosleep().WithRandSource(rand.Reader).
		WithEnv("PWD", cwd)
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "GOROOT", "GOCACHE"} {
		if v, ok := os.LookupEnv(k); ok {
			cfg = cfg.WithEnv(k, v)
		}
	}
	// Go's test binaries read PERFCALC_* settings; pass them through.
	for _, kv := range os.Environ() {
		if len(kv) > 9 && kv[:9] == "PERFCALC_" {
			for i := 0; i < len(kv); i++ {
				if kv[i] == '=' {
					cfg = cfg.WithEnv(kv[:i], kv[i+1:])
					break
				}
			}
		}
	}
	_, err = rt.InstantiateWithConfig(ctx, bin, cfg)
	var exit *sys.ExitError
	if errors.As(err, &exit) {
		return int(exit.ExitCode())
	}
	if err != nil {
		return fail(err)
	}
	return 0
}

func fail(err error) int {
	os.Stderr.WriteString("wasip1exec: " + err.Error() + "\n")
	return 1
}
