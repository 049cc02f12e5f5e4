#!/usr/bin/env node
// Runs a Go wasip1 command module (a `go test` binary) in Node's WASI, with the
// whole file system mounted and PWD passed, as $GOROOT/lib/wasm/
// go_wasip1_wasm_exec does with wasmtime. It lets the package's tests run as
// WebAssembly where no WASI runtime is installed:
//
//	GOOS=wasip1 GOARCH=wasm go test -exec "node wasm/go_wasip1_exec.mjs" ./wasm
import { readFile } from "node:fs/promises";
import { WASI } from "node:wasi";
import process from "node:process";

const [file, ...args] = process.argv.slice(2);
const wasi = new WASI({
  version: "preview1",
  args: [file, ...args],
  env: { PWD: process.cwd(), PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/" },
  preopens: { "/": "/" },
  returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(file));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
