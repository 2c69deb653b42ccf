// Structured JSON logs, one line per event. Never pass passwords, tokens or message bodies here:
// as a safety net, fields with secret-looking names are redacted, secrets in addresses are cut out
// of every string (redactAddress), and errors are reduced to their name, message, code and stack,
// without the bound parameters or the row a database error quotes.
import pino from "pino";

type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level, true> = { debug: true, info: true, warn: true, error: true };

/** Field names whose values never reach a log line. */
const SECRET_KEY =
  /pass(word|wd)?|secret|token|cookie|authorization|session|credential|^body$|^message$|^params$|^detail$/i;
const MAX_DEPTH = 6;
const MAX_STRING = 2_000;

/**
 * Secrets that travel in addresses: a sent quote's token in its path (`/devis/<token>`, with its
 * `/pdf` and `.data` forms; paths match without regard to case), `Ma demande`'s (`/ma-demande/<token>`) and the `jeton=` (alert links) and
 * `token=` (password reset) query parameters.
 */
const SECRET_IN_ADDRESS =
  /(\/(?:devis|ma-demande)\/)[^/?#\s"'<>]+|([?&;](?:jeton|token)=)[^&#\s"'<>]*/gi;

/**
 * A path or URL with its secrets replaced by `[redacted]`. Every string of every log line goes
 * through it (sanitize, the logger's formatter), whoever wrote the line: the access log, the
 * cross-site refusals, the 404 and error lines, an error's message.
 */
export function redactAddress(text: string): string {
  return text.replace(
    SECRET_IN_ADDRESS,
    (_match, path: string | undefined, parameter: string | undefined) =>
      `${path ?? parameter}[redacted]`,
  );
}

/** Drizzle puts the bound values after 'params:' in its message; pg quotes rows in 'detail'. */
function redactText(text: string): string {
  const cut = redactAddress(text.replace(/\nparams: [\s\S]*$/, "\nparams: [redacted]"));
  return cut.length > MAX_STRING ? `${cut.slice(0, MAX_STRING)}…` : cut;
}

function serializeError(error: Error, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = { name: error.name, message: redactText(error.message) };
  const extra = error as Error & Record<string, unknown>;
  // Database error identifiers are useful and carry no user data.
  for (const key of ["code", "severity", "table", "column", "constraint", "routine"]) {
    if (typeof extra[key] === "string") out[key] = extra[key];
  }
  if (error.stack) {
    // The stack starts with 'name: message', which may hold the same parameters.
    const frames = error.stack.split("\n").filter((line) => /^\s+at /.test(line));
    out.stack = frames.slice(0, 15).join("\n");
  }
  if (error.cause !== undefined && depth < MAX_DEPTH) out.cause = sanitize(error.cause, depth + 1);
  return out;
}

/** A JSON-safe copy of a log field, with secrets and user data removed. */
export function sanitize(value: unknown, depth = 0): unknown {
  if (value instanceof Error) return serializeError(value, depth);
  if (typeof value === "string") {
    const text = redactAddress(value);
    return text.length > MAX_STRING ? `${text.slice(0, MAX_STRING)}…` : text;
  }
  if (typeof value === "bigint") return value.toString();
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return "[…]";
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => sanitize(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) ? "[redacted]" : sanitize(v, depth + 1);
  }
  return out;
}

/**
 * pino writes the lines: debug and info to stdout, warn and error to stderr, through the process's
 * own streams (as before pino: tests read them, and files and terminals are written synchronously). Its path-based `redact` cannot match a field name at
 * any depth, so every line's fields go through `sanitize` above.
 */
function createLogger(): pino.Logger {
  const level = (process.env.LOG_LEVEL as Level | undefined) ?? "info";
  const streams = pino.multistream(
    [
      { level: "debug", stream: process.stdout },
      { level: "warn", stream: process.stderr },
    ],
    { dedupe: true },
  );
  return pino(
    {
      level: level in order ? level : "info",
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: (fields) => sanitize(fields) as Record<string, unknown>,
      },
    },
    streams,
  );
}

/** The process's logger; pino-http writes the access log through it. */
export const logger = createLogger();

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => logger.debug(fields ?? {}, msg),
  info: (msg: string, fields?: Record<string, unknown>) => logger.info(fields ?? {}, msg),
  warn: (msg: string, fields?: Record<string, unknown>) => logger.warn(fields ?? {}, msg),
  error: (msg: string, fields?: Record<string, unknown>) => logger.error(fields ?? {}, msg),
};
