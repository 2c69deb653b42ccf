// The part of autocannon 9's API that scripts/loadtest.ts uses (the package ships no types).
declare module "autocannon" {
  type Histogram = { average: number; max: number; p50: number; p90: number; p99: number };
  export type Result = {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    latency: Histogram;
    requests: Histogram;
    "1xx": number;
    "2xx": number;
    "3xx": number;
    "4xx": number;
    "5xx": number;
  };
  export type RequestSpec = {
    method?: string;
    path?: string;
    body?: string;
    headers?: Record<string, string>;
    setupRequest?: (request: never, context: never) => unknown;
    onResponse?: (status: number, body: string, context: never) => void;
  };
  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    requests?: RequestSpec[];
  };
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
