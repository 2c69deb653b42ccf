import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { dkimSettings } from "./dkim.server";

const dir = mkdtempSync(path.join(tmpdir(), "dkim-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pem = (type: "rsa" | "ec", bits = 2048) =>
  type === "rsa"
    ? generateKeyPairSync("rsa", {
        modulusLength: bits,
        publicKeyEncoding: { type: "spki", format: "pem" },
        privateKeyEncoding: { type: "pkcs1", format: "pem" },
      })
    : generateKeyPairSync("ec", {
        namedCurve: "prime256v1",
        publicKeyEncoding: { type: "spki", format: "pem" },
        privateKeyEncoding: { type: "pkcs8", format: "pem" },
      });

const base = { DKIM_DOMAIN: "example.fr", DKIM_SELECTOR: "serveurpro" };

describe("dkimSettings", () => {
  it("is off without DKIM_ variables", () => {
    expect(dkimSettings({})).toBeUndefined();
  });

  it("reads an RSA key from a file or from the variable (as PKCS#8)", () => {
    const { privateKey } = pem("rsa");
    const file = path.join(dir, "dkim.key");
    writeFileSync(file, privateKey);
    const fromFile = dkimSettings({ ...base, DKIM_PRIVATE_KEY_FILE: file });
    expect(fromFile).toMatchObject({ domainName: "example.fr", keySelector: "serveurpro" });
    expect(fromFile?.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(dkimSettings({ ...base, DKIM_PRIVATE_KEY: privateKey })).toEqual(fromFile);
  });

  it("stops the start with a readable message when the key cannot be used", () => {
    const missing = path.join(dir, "absente.key");
    expect(() => dkimSettings({ ...base, DKIM_PRIVATE_KEY_FILE: missing })).toThrow(
      `Configuration invalide :\n  DKIM_PRIVATE_KEY_FILE: fichier illisible (ENOENT) : ${missing}`,
    );
    const rsa = pem("rsa");
    for (const [text, message] of [
      ["pas une clé", /DKIM_PRIVATE_KEY: pas une clé privée PEM/],
      [rsa.publicKey, /DKIM_PRIVATE_KEY: pas une clé privée PEM/],
      [pem("ec").privateKey, /DKIM_PRIVATE_KEY: clé RSA attendue, pas ec/],
      [pem("rsa", 512).privateKey, /DKIM_PRIVATE_KEY: clé RSA de 512 bits : 2048 au moins/],
      [pem("rsa", 1024).privateKey, /DKIM_PRIVATE_KEY: clé RSA de 1024 bits : 2048 au moins/],
      [pem("rsa", 2047).privateKey, /DKIM_PRIVATE_KEY: clé RSA de 2047 bits : 2048 au moins/],
    ] as const) {
      expect(() => dkimSettings({ ...base, DKIM_PRIVATE_KEY: text })).toThrow(message);
    }
    expect(dkimSettings({ ...base, DKIM_PRIVATE_KEY: rsa.privateKey })).toBeDefined();
  });
});
