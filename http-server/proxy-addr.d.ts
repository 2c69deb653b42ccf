// proxy-addr 2.x ships no types (Express's own dependency; @types/proxy-addr is not installed).
declare module "proxy-addr" {
  import type { IncomingMessage } from "node:http";

  /** Whether the address `addr`, `hop` steps away from the server, is a trusted proxy. */
  export type TrustFunction = (addr: string, hop: number) => boolean;

  /** The closest address that is not trusted (the client), walking back X-Forwarded-For. */
  function proxyaddr(req: IncomingMessage, trust: TrustFunction | string | string[]): string;

  namespace proxyaddr {
    /** Compiles addresses, CIDR ranges and `loopback`, `linklocal`, `uniquelocal`; throws TypeError. */
    function compile(values: string | string[]): TrustFunction;
    function all(req: IncomingMessage, trust?: TrustFunction | string | string[]): string[];
  }

  export default proxyaddr;
}
