import { ERROR_MESSAGES, type ErrorCopy } from "../app/lib/messages";

/**
 * A minimal, self-contained French error page for answers given before React Router runs
 * (body too large, unsupported encoding, a failure outside the app). No script, no stack.
 */
export function plainErrorPage(copy: ErrorCopy, requestId: string | undefined): string {
  const escape = (text: string) =>
    text.replace(
      /[&<>"']/g,
      (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
    );
  const reference = requestId
    ? `<p>${ERROR_MESSAGES.requestReference} : <code data-request-id>${escape(requestId)}</code></p>`
    : "";
  return (
    `<!doctype html><html lang="fr"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escape(copy.title)}</title></head>` +
    `<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem">` +
    `<h1>${escape(copy.title)}</h1><p>${escape(copy.detail)}</p>${reference}` +
    `<p><a href="/">${escape(ERROR_MESSAGES.backHome)}</a></p></body></html>`
  );
}
