import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { envSchema, parseEnv, withRenamedVariables } from "./env.server";

/** .env.example as `{ name: value }`; a commented `# NAME=` line is a variable without default. */
function example() {
  const text = readFileSync(new URL("../../.env.example", import.meta.url), "utf8");
  const set: Record<string, string> = {};
  const unset: string[] = [];
  for (const line of text.split("\n")) {
    const assigned = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (assigned) set[assigned[1]] = assigned[2];
    const commented = /^# ([A-Z][A-Z0-9_]*)=/.exec(line);
    if (commented) unset.push(commented[1]);
  }
  return { set, unset };
}

describe(".env.example", () => {
  it("lists every variable of env.server.ts, and no other", () => {
    const { set, unset } = example();
    expect([...Object.keys(set), ...unset].sort()).toEqual(Object.keys(envSchema.shape).sort());
  });

  it("gives each variable its default: the file's values parse to what no value gives", () => {
    const { set, unset } = example();
    const defaults = parseEnv({});
    const fromFile = parseEnv(set);
    for (const name of Object.keys(set)) {
      expect(fromFile[name as keyof typeof fromFile], name).toEqual(
        defaults[name as keyof typeof defaults],
      );
    }
    for (const name of unset) {
      expect(defaults[name as keyof typeof defaults], name).toBeUndefined();
    }
  });
});

describe("SITE_URL", () => {
  it("defaults to the port the server listens on", () => {
    expect(parseEnv({}).SITE_URL).toBe("http://localhost:3000");
    expect(parseEnv({ PORT: "8080" }).SITE_URL).toBe("http://localhost:8080");
    expect(parseEnv({ PORT: "8080", SITE_URL: "https://x.fr" }).SITE_URL).toBe("https://x.fr");
  });
});

describe("TRUST_PROXY", () => {
  const parse = (value?: string) => parseEnv(value === undefined ? {} : { TRUST_PROXY: value });

  it("trusts no peer when unset or false", () => {
    for (const value of [undefined, "", "false", "0", "no", " FALSE "]) {
      expect(parse(value).TRUST_PROXY, String(value)).toEqual({ kind: "none" });
    }
  });

  it("takes loopback, named ranges, addresses and CIDR ranges, comma-separated", () => {
    expect(parse("loopback").TRUST_PROXY).toEqual({ kind: "addresses", addresses: ["loopback"] });
    expect(
      parse(" 10.0.0.5, 192.168.0.0/16 ,fd00::/8,uniquelocal, linklocal,::1").TRUST_PROXY,
    ).toEqual({
      kind: "addresses",
      addresses: ["10.0.0.5", "192.168.0.0/16", "fd00::/8", "uniquelocal", "linklocal", "::1"],
    });
  });

  it("keeps true (and 1, yes) as the old one hop, outside production", () => {
    for (const value of ["true", "1", "yes", "TRUE"]) {
      expect(parse(value).TRUST_PROXY, value).toEqual({ kind: "any-peer" });
      expect(parseEnv({ NODE_ENV: "test", TRUST_PROXY: value }).TRUST_PROXY).toEqual({
        kind: "any-peer",
      });
    }
  });

  it("refuses true in production, saying what to set instead", () => {
    for (const value of ["true", "1", "yes"]) {
      expect(() => parseEnv({ NODE_ENV: "production", TRUST_PROXY: value }), value).toThrow(
        /^Configuration invalide :\n {2}TRUST_PROXY: true \(tout pair cru comme proxy\) est refusé en production.*\(loopback, 10\.0\.0\.5, 10\.0\.0\.0\/24\)$/,
      );
    }
    expect(parseEnv({ NODE_ENV: "production", TRUST_PROXY: "loopback" }).TRUST_PROXY).toEqual({
      kind: "addresses",
      addresses: ["loopback"],
    });
  });

  it("stops on a value that is not an address, a range or a name, saying which", () => {
    for (const value of [
      "2",
      "10.0.0.300",
      "10.0.0.0/33",
      "proxy.example.fr",
      "0x7f.0.0.1",
      "loopback, nginx",
      ",",
    ]) {
      expect(() => parse(value), value).toThrow(/TRUST_PROXY: adresse ou plage non valide/);
    }
    expect(() => parse("loopback, nginx")).toThrow(/\(nginx\)/);
  });
});

describe("TOTP_ENCRYPTION_KEY", () => {
  const KEY = Buffer.alloc(32, 3).toString("base64");

  it("is required in production on a public address, with a readable message", () => {
    const production = { NODE_ENV: "production", SITE_URL: "https://www.example.fr" };
    expect(() => parseEnv(production)).toThrow(
      /^Configuration invalide :\n {2}TOTP_ENCRYPTION_KEY: obligatoire en production \(32 octets en base64 : openssl rand -base64 32\)/,
    );
    expect(() => parseEnv({ ...production, TOTP_ENCRYPTION_KEY: "" })).toThrow(
      /TOTP_ENCRYPTION_KEY: obligatoire en production/,
    );
    expect(parseEnv({ ...production, TOTP_ENCRYPTION_KEY: KEY }).TOTP_ENCRYPTION_KEY).toEqual(
      Buffer.alloc(32, 3),
    );
  });

  it("stays optional in development and for the demo on this machine", () => {
    expect(parseEnv({ SITE_URL: "https://www.example.fr" }).TOTP_ENCRYPTION_KEY).toBeUndefined();
    for (const SITE_URL of [
      undefined,
      "http://localhost:3000",
      "http://127.0.0.1:4000",
      "https://[::1]:8443",
    ]) {
      expect(
        parseEnv({ NODE_ENV: "production", SITE_URL }).TOTP_ENCRYPTION_KEY,
        SITE_URL,
      ).toBeUndefined();
    }
  });
});

describe("MIGRATION_DATABASE_URL", () => {
  it("is a PostgreSQL address, and only beside DATABASE_URL", () => {
    const DATABASE_URL = "postgres://serveurpro_app:x@db:5432/serveurpro";
    const MIGRATION_DATABASE_URL = "postgres://serveurpro_owner:y@db:5432/serveurpro";
    expect(parseEnv({ DATABASE_URL, MIGRATION_DATABASE_URL }).MIGRATION_DATABASE_URL).toBe(
      MIGRATION_DATABASE_URL,
    );
    expect(parseEnv({ DATABASE_URL, MIGRATION_DATABASE_URL: "" }).MIGRATION_DATABASE_URL).toBe(
      undefined,
    );
    expect(() => parseEnv({ DATABASE_URL, MIGRATION_DATABASE_URL: "mysql://x" })).toThrow(
      /MIGRATION_DATABASE_URL doit commencer par postgres:\/\//,
    );
    expect(() => parseEnv({ MIGRATION_DATABASE_URL })).toThrow(
      /MIGRATION_DATABASE_URL: ne sert qu'avec DATABASE_URL/,
    );
  });
});

describe("SHUTDOWN_TIMEOUT_SECONDS", () => {
  const parse = (source: NodeJS.ProcessEnv) => {
    const warnings: string[] = [];
    const e = parseEnv(withRenamedVariables(source, (w) => warnings.push(w)));
    return { seconds: e.SHUTDOWN_TIMEOUT_SECONDS, warnings };
  };

  it("defaults to 20 s and takes decimals", () => {
    expect(parse({})).toEqual({ seconds: 20, warnings: [] });
    expect(parse({ SHUTDOWN_TIMEOUT_SECONDS: "1.5" }).seconds).toBe(1.5);
  });

  it("still reads the old SHUTDOWN_TIMEOUT_MS, in milliseconds, with a warning; the new name wins", () => {
    const old = parse({ SHUTDOWN_TIMEOUT_MS: "1500" });
    expect(old.seconds).toBe(1.5);
    expect(old.warnings).toEqual([expect.stringContaining("SHUTDOWN_TIMEOUT_SECONDS")]);
    expect(parse({ SHUTDOWN_TIMEOUT_MS: "1500", SHUTDOWN_TIMEOUT_SECONDS: "3" })).toEqual({
      seconds: 3,
      warnings: [],
    });
    expect(() => parse({ SHUTDOWN_TIMEOUT_MS: "10s" })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
    expect(() => parse({ SHUTDOWN_TIMEOUT_SECONDS: "-1" })).toThrow(/SHUTDOWN_TIMEOUT_SECONDS/);
  });
});

describe("METRICS_TOKEN", () => {
  it("is off by default and refuses a short or unsendable token", () => {
    expect(parseEnv({}).METRICS_TOKEN).toBeUndefined();
    expect(parseEnv({ METRICS_TOKEN: "" }).METRICS_TOKEN).toBeUndefined();
    expect(parseEnv({ METRICS_TOKEN: "a".repeat(32) }).METRICS_TOKEN).toBe("a".repeat(32));
    expect(() => parseEnv({ METRICS_TOKEN: "court" })).toThrow(/METRICS_TOKEN/);
    expect(() => parseEnv({ METRICS_TOKEN: "avec des espaces dedans" })).toThrow(/METRICS_TOKEN/);
  });
});

describe("DKIM_*", () => {
  const full = { DKIM_DOMAIN: "Example.fr", DKIM_SELECTOR: "serveurpro" };

  it("all three or none", () => {
    expect(parseEnv({}).DKIM_DOMAIN).toBeUndefined();
    const e = parseEnv({ ...full, DKIM_PRIVATE_KEY_FILE: "/etc/serveurpro/dkim.key" });
    expect([e.DKIM_DOMAIN, e.DKIM_SELECTOR]).toEqual(["example.fr", "serveurpro"]);
    expect(() => parseEnv({ DKIM_DOMAIN: "example.fr" })).toThrow(
      /DKIM_SELECTOR: obligatoire[\s\S]*DKIM_PRIVATE_KEY_FILE \(ou DKIM_PRIVATE_KEY\): obligatoire/,
    );
    expect(() => parseEnv({ DKIM_PRIVATE_KEY: "x" })).toThrow(/DKIM_DOMAIN: obligatoire/);
    expect(() => parseEnv({ ...full, DKIM_PRIVATE_KEY_FILE: "/k", DKIM_PRIVATE_KEY: "x" })).toThrow(
      /pas les deux/,
    );
    expect(() =>
      parseEnv({ ...full, DKIM_DOMAIN: "pas un domaine", DKIM_PRIVATE_KEY: "x" }),
    ).toThrow(/DKIM_DOMAIN: nom de domaine attendu/);
  });

  it("reads a PEM key given on one line with \\n", () => {
    const e = parseEnv({ ...full, DKIM_PRIVATE_KEY: "-----BEGIN-----\\nabc\\n-----END-----\\n" });
    expect(e.DKIM_PRIVATE_KEY).toBe("-----BEGIN-----\nabc\n-----END-----");
  });
});
