import { createPrivateKey, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Env } from "~/platform/env.server";

/** nodemailer's `dkim` transport option: every mail it sends is signed (rsa-sha256). */
export type DkimSettings = { domainName: string; keySelector: string; privateKey: string };

/** Shorter RSA keys are refused at start: 1024 bits are within reach of a well-funded attacker (NIST SP 800-131A). */
export const DKIM_MIN_BITS = 2048;
/** How to make a key that works, in the error messages. */
const KEYGEN = "openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out dkim.key";

function invalid(variable: string, message: string): Error {
  return new Error(`Configuration invalide :\n  ${variable}: ${message}`);
}

/**
 * The DKIM signing settings of DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE (or
 * DKIM_PRIVATE_KEY), or undefined when they are not set (env.server.ts allows all or none). The
 * key is read and checked here, at start: a file that cannot be read or a text that is not an RSA
 * private key of DKIM_MIN_BITS (2048) bits or more stops the server with a readable message, never the first mail.
 */
export function dkimSettings(
  e: Pick<Env, "DKIM_DOMAIN" | "DKIM_SELECTOR" | "DKIM_PRIVATE_KEY_FILE" | "DKIM_PRIVATE_KEY">,
): DkimSettings | undefined {
  if (!e.DKIM_DOMAIN || !e.DKIM_SELECTOR) return undefined;
  const variable = e.DKIM_PRIVATE_KEY_FILE ? "DKIM_PRIVATE_KEY_FILE" : "DKIM_PRIVATE_KEY";
  let pem: string;
  if (e.DKIM_PRIVATE_KEY_FILE) {
    try {
      pem = readFileSync(e.DKIM_PRIVATE_KEY_FILE, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "erreur";
      throw invalid(variable, `fichier illisible (${code}) : ${e.DKIM_PRIVATE_KEY_FILE}`);
    }
  } else {
    pem = e.DKIM_PRIVATE_KEY ?? "";
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw invalid(variable, `pas une clé privée PEM lisible sans mot de passe (${KEYGEN})`);
  }
  if (key.asymmetricKeyType !== "rsa") {
    throw invalid(
      variable,
      `clé RSA attendue, pas ${key.asymmetricKeyType ?? "inconnue"} (${KEYGEN})`,
    );
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < DKIM_MIN_BITS) {
    throw invalid(variable, `clé RSA de ${bits} bits : ${DKIM_MIN_BITS} au moins (${KEYGEN})`);
  }
  return {
    domainName: e.DKIM_DOMAIN,
    keySelector: e.DKIM_SELECTOR,
    privateKey: key.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}
