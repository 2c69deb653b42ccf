// The practical ceiling: a minimal Node HTTP server answering GET /<name> with the bytes of the
// static file bench/tmp/static/<name>, read once and kept in memory. Usage: node static-server.mjs DIR PORT
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";

const [dir, port] = process.argv.slice(2);
const files = new Map();

createServer((req, res) => {
  const name = path.basename(req.url ?? "/");
  let body = files.get(name);
  if (!body) {
    try {
      body = readFileSync(path.join(dir, name));
      files.set(name, body);
    } catch {
      res.writeHead(404).end();
      return;
    }
  }
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": body.length });
  res.end(body);
}).listen(Number(port), "127.0.0.1", () => process.send?.("ready"));
