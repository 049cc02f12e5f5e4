// A small static server for the perfcalc viewer, on 127.0.0.1 only. It
// serves the repository's web/ and wasm/ folders (GET and HEAD, no listing),
// .wasm files as application/wasm, and /web/perfcalc.wasm and
// /web/perfcalc-analyze.wasm from wasm/module/ when the package's copies are
// absent (they are made only when the package is packed), so that
// perfcalc.mjs finds the modules beside it: perfcalc.wasm at once, the
// analyze module when the Analysis view is first opened.
//
//   node web/viewer/serve.mjs [--port 8080] [--wasm FILE]
//
// --port 0: any free port; --wasm FILE: serve FILE as /web/perfcalc.wasm
// (a module built otherwise, e.g. the debug build).
//
// The e2e test imports serve() from here.

import { createServer } from "node:http";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root: web/viewer/../../ */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".ts": "text/plain; charset=utf-8",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".svg": "image/svg+xml",
};

// The folders served, as URL prefixes of the same name.
const SERVED = ["web", "wasm"];

// The modules served from wasm/module/ as /web/NAME when web/NAME (the
// package's copy) is absent.
const MODULES = ["perfcalc.wasm", "perfcalc-analyze.wasm"];

// resolve maps a URL path to a file of a served folder, or null.
async function resolve(root, urlPath, wasm) {
  let p;
  try {
    p = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (p.includes("\0")) return null;
  const rel = normalize(p).replace(/^([/\\])+/, "");
  if (wasm && rel === join("web", "perfcalc.wasm")) {
    const st = await stat(wasm).catch(() => null);
    return st && st.isFile() ? { file: wasm, size: st.size } : null;
  }
  const top = rel.split(/[/\\]/)[0];
  if (!SERVED.includes(top) || rel.split(/[/\\]/).includes("..")) return null;
  let file = join(root, rel);
  if (!file.startsWith(join(root, top) + sep) && file !== join(root, top)) return null;
  let st = await stat(file).catch(() => null);
  if (st && st.isDirectory()) {
    file = join(file, "index.html");
    st = await stat(file).catch(() => null);
  }
  if (!st && MODULES.some((m) => rel === join("web", m))) {
    file = join(root, "wasm", "module", rel.slice("web/".length));
    st = await stat(file).catch(() => null);
  }
  return st && st.isFile() ? { file, size: st.size } : null;
}

/**
 * Starts the server on 127.0.0.1.
 * @param {{port?: number, root?: string, wasm?: string}} [opts] wasm: a
 *   module file served as /web/perfcalc.wasm instead of the repository's
 * @returns {Promise<{server: import("node:http").Server, url: string, close: () => Promise<void>}>}
 *   url is the viewer's address.
 */
export async function serve({ port = 8080, root = ROOT, wasm } = {}) {
  const server = createServer(async (req, res) => {
    const send = (code, text) => {
      res.writeHead(code, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : text + "\n");
    };
    if (req.method !== "GET" && req.method !== "HEAD") return send(405, "only GET and HEAD");
    const url = new URL(req.url, "http://127.0.0.1");
    if (url.pathname === "/" || url.pathname === "/web/viewer") {
      res.writeHead(302, { location: "/web/viewer/" });
      return res.end();
    }
    const found = await resolve(root, url.pathname, wasm);
    if (!found) return send(404, "not found: " + url.pathname);
    res.writeHead(200, {
      "content-type": TYPES[extname(found.file)] ?? "application/octet-stream",
      "content-length": found.size,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    });
    if (req.method === "HEAD") return res.end();
    createReadStream(found.file).on("error", () => res.destroy()).pipe(res);
  });
  await new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", ok);
  });
  const addr = server.address();
  return {
    server,
    url: `http://127.0.0.1:${addr.port}/web/viewer/`,
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}

// As a program: serve until interrupted.
if (process.argv[1] && fileURLToPath(import.meta.url) === normalize(process.argv[1])) {
  const args = process.argv.slice(2);
  let port = 8080, wasm;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const m = /^--?port(?:=(.*))?$/.exec(a);
    const w = /^--?wasm(?:=(.*))?$/.exec(a);
    if (w) {
      wasm = w[1] ?? args[++i];
      if (!wasm) {
        console.error("serve: --wasm needs a file");
        process.exit(2);
      }
    } else if (m) {
      const v = m[1] ?? args[++i];
      port = Number(v);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        console.error(`serve: --port ${v} is not a port number`);
        process.exit(2);
      }
    } else if (a === "-h" || a === "--help") {
      console.log("Usage: node web/viewer/serve.mjs [--port 8080] [--wasm FILE]\nServes the perfcalc viewer on 127.0.0.1 (--port 0: any free port; --wasm FILE: FILE as /web/perfcalc.wasm).");
      process.exit(0);
    } else {
      console.error(`serve: unknown argument ${a} (want --port N or --wasm FILE)`);
      process.exit(2);
    }
  }
  try {
    const { url } = await serve({ port, wasm });
    console.log(`perfcalc viewer: ${url}  (127.0.0.1 only; Ctrl-C stops it)`);
  } catch (err) {
    console.error(`serve: ${err.message}`);
    process.exit(1);
  }
}
