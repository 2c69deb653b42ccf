import { request, type IncomingHttpHeaders } from "node:http";

export type Answer = { status: number; headers: IncomingHttpHeaders; text: string };

export type RawRequest = {
  method?: string;
  path: string;
  /** Pairs, so that a header can be repeated. */
  headers?: [string, string][];
  body?: string | Buffer;
  /** Send the body with Transfer-Encoding: chunked (no Content-Length), in 16 KiB pieces. */
  chunked?: boolean;
};

/**
 * One HTTP/1.1 request with node:http, for full control over headers and body (fetch refuses
 * some of what hostile clients send). Resolves with the answer even when the server closes the
 * connection before the whole body is sent (early 413).
 */
export function send(baseUrl: string, options: RawRequest): Promise<Answer> {
  const url = new URL(options.path, baseUrl);
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === "string"
        ? Buffer.from(options.body, "utf8")
        : options.body;
  const headers: string[] = [];
  const hasHeader = (name: string) =>
    (options.headers ?? []).some(([k]) => k.toLowerCase() === name);
  // With headers given as pairs, node:http adds no Host of its own.
  if (!hasHeader("host")) headers.push("Host", url.host);
  for (const [k, v] of options.headers ?? []) headers.push(k, v);
  if (body && !options.chunked && !hasHeader("content-length")) {
    headers.push("Content-Length", String(body.length));
  }
  if (options.chunked) headers.push("Transfer-Encoding", "chunked");
  headers.push("Connection", "close");

  return new Promise<Answer>((resolve, reject) => {
    let answered = false;
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? "GET",
        path: `${url.pathname}${url.search}`,
        headers,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      // The server answered early and closed: the answer is what counts.
      if (!answered && !["EPIPE", "ECONNRESET"].includes(error.code ?? "")) reject(error);
      else if (!answered) setTimeout(() => !answered && reject(error), 1_000);
    });
    if (body && options.chunked) {
      let offset = 0;
      const pump = () => {
        while (offset < body.length) {
          const piece = body.subarray(offset, offset + 16_384);
          offset += piece.length;
          if (!req.write(piece)) {
            req.once("drain", pump);
            return;
          }
        }
        req.end();
      };
      pump();
    } else {
      req.end(body);
    }
  });
}

/** application/x-www-form-urlencoded from pairs (repeatable) or an object. */
export function urlencoded(fields: Record<string, string> | [string, string][]): string {
  const pairs = Array.isArray(fields) ? fields : Object.entries(fields);
  return new URLSearchParams(pairs).toString();
}

/** multipart/form-data by hand (boundary fixed), for file parts and malformed variants. */
export function multipart(
  parts: { name: string; value: string; filename?: string }[],
  boundary = "----hostile-boundary-7MA4YWxk",
): { body: string; contentType: string } {
  const lines: string[] = [];
  for (const part of parts) {
    lines.push(`--${boundary}`);
    lines.push(
      `Content-Disposition: form-data; name="${part.name}"` +
        (part.filename !== undefined ? `; filename="${part.filename}"` : ""),
    );
    if (part.filename !== undefined) lines.push("Content-Type: application/octet-stream");
    lines.push("", part.value);
  }
  lines.push(`--${boundary}--`, "");
  return { body: lines.join("\r\n"), contentType: `multipart/form-data; boundary=${boundary}` };
}
