// negotiator 1.x ships no types (@types/negotiator describes 0.6, without `preferred`).
declare module "negotiator" {
  import type { IncomingMessage } from "node:http";

  export default class Negotiator {
    constructor(request: Pick<IncomingMessage, "headers">);
    /** The available encodings the client accepts, best first (q, then `preferred` order). */
    encodings(available?: string[], options?: { preferred?: string[] }): string[];
  }
}
