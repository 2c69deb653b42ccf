/**
 * Pages rendered whole (app/entry.server.tsx) keep their bytes beside their Response, so that the
 * HTTP layer (http-server/fetch-adapter.ts) writes them in one call instead of reading them back
 * through the Response's web stream, a chunk at a time (issue 31: the stream's machinery cost more
 * than the page's components on an uncached render).
 */
// On globalThis: the Express entry and the React Router build are two module graphs.
const slot = globalThis as typeof globalThis & { __wholeResponses?: WeakMap<Response, Buffer> };
const bytes = (slot.__wholeResponses ??= new WeakMap());

/** A Response of `body`, whose bytes wholeBody gives back. */
export function wholeResponse(body: Buffer, init: ResponseInit): Response {
  const response = new Response(body as Uint8Array<ArrayBuffer>, init);
  bytes.set(response, body);
  return response;
}

/** The bytes of a Response made by wholeResponse and not read since; undefined for any other. */
export function wholeBody(response: Response): Buffer | undefined {
  const body = bytes.get(response);
  return body && !response.bodyUsed ? body : undefined;
}
