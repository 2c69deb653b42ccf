import { readFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

// A stand-in for the API Recherche d'entreprises (SIRENE_API_URL, issue 41) on loopback: `GET
// /search?q=<siren>` answers the recorded answers of tests/support/sirene/ in the API's own format
// (fictitious companies; the fields as the API sends them), an empty result for any other SIREN.
// Or it never answers (a hung API), or answers 500 (a failing one).

/** SIRENs with a right key: one per recorded answer, and some the register does not know. */
export const SIRENS = {
  /** ACME SAS, active, head office in Paris. */
  active: "732829320",
  /** ANCIENNE FONDERIE DUPONT, a SARL closed on 2023-03-31. */
  closed: "812345676",
  unknown: "401234562",
  other: "555444330",
  another: "900111220",
} as const;

function recorded(name: string): string {
  return readFileSync(new URL(`./sirene/${name}.json`, import.meta.url), "utf8");
}

const ANSWERS: Record<string, string> = {
  [SIRENS.active]: recorded("active-sas"),
  [SIRENS.closed]: recorded("closed-sarl"),
};
const NOT_FOUND = recorded("not-found");

export type SireneMode = "recorded" | "silent" | "failing";

export type TestSireneServer = {
  url: string;
  /** How it answers from now on. */
  mode: SireneMode;
  /** The `q` of every search asked, in order. */
  searches: string[];
  stop: () => Promise<void>;
};

function send(res: ServerResponse, status: number, body: string, type = "application/json") {
  res.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

export async function startTestSireneServer(
  mode: SireneMode = "recorded",
): Promise<TestSireneServer> {
  const searches: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const { mode } = api;
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== "/search") {
      return send(res, 404, JSON.stringify({ erreur: "Page non trouvée" }));
    }
    const q = url.searchParams.get("q") ?? "";
    searches.push(q);
    if (mode === "silent") return; // the request waits until the client gives up
    if (mode === "failing") {
      const page = "<html><head><title>500 Internal Server Error</title></head></html>";
      return send(res, 500, page, "text/html");
    }
    if (!q) {
      const erreur = "Veuillez indiquer au moins un paramètre de recherche.";
      return send(res, 400, JSON.stringify({ erreur }));
    }
    send(res, 200, ANSWERS[q] ?? NOT_FOUND);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const api: TestSireneServer = {
    url: `http://127.0.0.1:${port}`,
    mode,
    searches,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return api;
}
