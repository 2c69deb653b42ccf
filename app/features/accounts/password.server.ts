import { hash, verify, type Algorithm, type Options } from "@node-rs/argon2";
import { createSemaphore, QueueFullError } from "~/lib/semaphore";

// argon2id with the OWASP-recommended minimum (19 MiB, 2 passes, 1 lane): about 0.3 s here.
const ARGON2_OPTIONS: Options = {
  algorithm: 2 as Algorithm.Argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

/**
 * Hashing stays bounded (issue 28): at most 2 argon2 computations at once (each takes a core and
 * 19 MiB for about 0.3 s), 8 more waiting; past that a hash is refused at once (HashingBusyError:
 * the sign-in page answers 503 with Retry-After) instead of a flood taking every core. Priority
 * work (a browser known to the account, a signed-in administrator) waits ahead of the rest, in a
 * line of its own: what floods the sign-in page from unknown browsers never keeps it out.
 */
export const HASHING_LIMITS = {
  concurrency: 2,
  maxQueued: 8,
  maxPriorityQueued: 32,
  retryAfterSeconds: 5,
} as const;

const hashing = createSemaphore(HASHING_LIMITS);

/** Every hashing slot is busy and the line is full: try again in a few seconds (503). */
export class HashingBusyError extends QueueFullError {
  constructor() {
    super();
    this.name = "HashingBusyError";
  }
}

export type HashingOptions = { priority?: boolean };

/**
 * True when an ordinary hash asked now would be refused: sign-in answers such a flood at once,
 * before any database work.
 */
export function hashingFull(): boolean {
  return (
    hashing.active >= HASHING_LIMITS.concurrency &&
    hashing.queuedOrdinary >= HASHING_LIMITS.maxQueued
  );
}

async function bounded<T>(task: () => Promise<T>, options: HashingOptions): Promise<T> {
  try {
    return await hashing.run(task, options);
  } catch (error) {
    if (error instanceof QueueFullError && !(error instanceof HashingBusyError)) {
      throw new HashingBusyError();
    }
    throw error;
  }
}

export function hashPassword(password: string, options: HashingOptions = {}): Promise<string> {
  return bounded(() => hash(password, ARGON2_OPTIONS), options);
}

export async function verifyPassword(
  passwordHash: string,
  password: string,
  options: HashingOptions = {},
): Promise<boolean> {
  return bounded(async () => {
    try {
      return await verify(passwordHash, password);
    } catch {
      // A malformed stored hash never signs anyone in.
      return false;
    }
  }, options);
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies the password against a throwaway hash made with the same parameters, so that an
 * unknown e-mail costs as much time as a known one (no account enumeration by timing).
 */
export async function verifyDummyPassword(password: string): Promise<false> {
  dummyHash ??= hashPassword("dummy password that matches no account", { priority: true }).catch(
    (error: unknown) => {
      dummyHash = undefined;
      throw error;
    },
  );
  await verifyPassword(await dummyHash, password);
  return false;
}
