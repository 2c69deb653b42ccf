// The practical ceiling: a minimal Node HTTP server answering GET /<name> with the bytes of the
// static file <dir>/<name> (the bench saves each page's own bytes there), read once and kept in
// memory, with only the headers Node needs.
// GET /<name>.h answers the same bytes with the headers in <dir>/<name>.headers.json (the page's
// own headers: what parsing and sending them costs, on both sides, without any application work).
// Usage: node static-server.mjs DIR PORT
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";

const [dir, port] = process.argv.slice(2);
const files = new Map();

function load(name) {
  let file = files.get(name);
  if (!file) {
    const body = readFileSync(path.join(dir, name));
    let headers = {};
    try {
      headers = JSON.parse(readFileSync(path.join(dir, `${name}.headers.json`), "utf8"));
    } catch {
      // no recorded headers
    }
    file = { body, headers };
    files.set(name, file);
  }
  return file;
}

createServer((req, res) => {
  const requested = path.basename(req.url ?? "/");
  const withHeaders = requested.endsWith(".h");
  let file;
  try {
    file = load(withHeaders ? requested.slice(0, -2) : requested);
  } catch {
    res.writeHead(404).end();
    return;
  }
  if (withHeaders) {
    for (const [name, value] of Object.entries(file.headers)) res.setHeader(name, value);
    res.setHeader("Content-Length", file.body.length);
    res.end(file.body);
    return;
  }
  res.writeHead(200, {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Length": file.body.length,
  });
  res.end(file.body);
}).listen(Number(port), "127.0.0.1", () => process.send?.("ready"));
