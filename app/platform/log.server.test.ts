import { describe, expect, it } from "vitest";
import { redactAddress, sanitize } from "./log.server";

describe("log sanitizing", () => {
  it.each([
    ["password", "hunter2"],
    ["sessionToken", "abc"],
    ["cookie", "__session=abc"],
    ["message", "corps du message"],
    ["body", "name=x"],
  ])("redacts %s, keeps the request id", (name, value) => {
    expect(sanitize({ [name]: value, requestId: "r1" })).toEqual({
      [name]: "[redacted]",
      requestId: "r1",
    });
  });

  it("redacts at any depth", () => {
    expect(
      sanitize({
        user: { passwordHash: "$argon2id$...", email: "a@example.fr" },
        headers: { authorization: "Bearer abc" },
      }),
    ).toEqual({
      user: { passwordHash: "[redacted]", email: "a@example.fr" },
      headers: { authorization: "[redacted]" },
    });
  });

  it("drops the bound parameters Drizzle and pg put in errors, keeps the codes", () => {
    const cause = Object.assign(new Error('new row violates check constraint "x"'), {
      code: "23514",
      constraint: "x",
      detail: "Failing row contains (1, Jean, secret message).",
    });
    const error = Object.assign(
      new Error('Failed query: insert into "t" values ($1)\nparams: Jean,secret message'),
      { params: ["Jean", "secret message"], cause },
    );
    const out = JSON.stringify(sanitize({ error }));
    expect(out).not.toContain("secret message");
    expect(out).toContain("params: [redacted]");
    expect(out).toContain('"code":"23514"');
    expect(out).toContain('"constraint":"x"');
    expect(out).toContain("Failed query: insert into");
  });

  it("keeps the stack frames but not the first line, which repeats the message", () => {
    const error = new Error("Failed query: x\nparams: p@example.fr");
    const out = sanitize(error) as { stack: string };
    expect(out.stack).toMatch(/^\s+at /);
    expect(out.stack).not.toContain("p@example.fr");
  });

  it("bounds long strings, deep objects and cycles", () => {
    const deep: Record<string, unknown> = {};
    let cursor = deep;
    for (let i = 0; i < 20; i++) cursor = cursor.next = {} as Record<string, unknown>;
    expect(() => JSON.stringify(sanitize({ deep }))).not.toThrow();
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(() => JSON.stringify(sanitize(cyclic))).not.toThrow();
    expect((sanitize("x".repeat(10_000)) as string).length).toBeLessThan(2_100);
  });
});

describe("secrets in addresses", () => {
  const token = "Zm9vYmFyLXNlY3JldC10b2tlbi0xMjM0NTY3ODkwYWJj";

  it.each([
    [`/devis/${token}`, "/devis/[redacted]"],
    [`/devis/${token}/pdf`, "/devis/[redacted]/pdf"],
    [`/devis/${token}.data`, "/devis/[redacted]"],
    [`/DEVIS/${token}`, "/DEVIS/[redacted]"],
    // `Ma demande` (issue 42).
    [`/ma-demande/${token}`, "/ma-demande/[redacted]"],
    [`/ma-demande/${token}?message=envoye`, "/ma-demande/[redacted]?message=envoye"],
    [`https://www.example.fr/devis/${token}?x=1`, "https://www.example.fr/devis/[redacted]?x=1"],
    [`/alertes/confirmer?jeton=${token}`, "/alertes/confirmer?jeton=[redacted]"],
    [
      `/auth/nouveau-mot-de-passe?a=1&token=${token}&b=2`,
      "/auth/nouveau-mot-de-passe?a=1&token=[redacted]&b=2",
    ],
    [`/alertes/desinscription?JETON=${token}#x`, "/alertes/desinscription?JETON=[redacted]#x"],
    ["/offers/starter-web?q=devis", "/offers/starter-web?q=devis"],
    ["/devis", "/devis"],
  ])("%s", (address, redacted) => {
    expect(redactAddress(address)).toBe(redacted);
  });

  it("are cut out of every string of a line, an error's message included", () => {
    const error = new Error(`No route matches URL "/devis/${token}/x"`);
    const out = JSON.stringify(
      sanitize({ path: `/devis/${token}`, nested: { url: `/x?token=${token}` }, error }),
    );
    expect(out).not.toContain(token);
    expect(out).toContain("/devis/[redacted]");
  });
});
