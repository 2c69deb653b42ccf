// npm run admin:create -- --email E --password P
// Creates an administrator, or resets the password of an existing one (its sessions are ended).
// Works on a fresh data directory (migrations run first). On the embedded database, the data
// directory must not be held by a running server: the command then stops and says so.
import { parseArgs } from "node:util";
import { adminCredentialsSchema, issuesToText } from "../app/features/accounts/credentials";
import { DataDirBusyError } from "../app/platform/db.server";
import { startDatabase } from "../app/features/setup/startup.server";
import { upsertAdmin } from "../app/features/accounts/users.server";

// Only warnings and errors from the database layer: the command prints its own result.
process.env.LOG_LEVEL ??= "warn";

const USAGE =
  "Usage : npm run admin:create -- --email admin@example.fr --password 'au moins 12 caractères'";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let values: { email?: string; password?: string };
try {
  ({ values } = parseArgs({
    options: { email: { type: "string" }, password: { type: "string" } },
    strict: true,
  }));
} catch (error) {
  fail(`Arguments invalides : ${(error as Error).message}\n${USAGE}`);
}

// Checked before the database is opened: a typo answers at once.
const parsed = adminCredentialsSchema.safeParse(values);
if (!parsed.success) fail(`${issuesToText(parsed.error)}\n${USAGE}`);

try {
  const handle = await startDatabase({ seed: false, initialAdmin: false, lockWaitMs: 0 });
  try {
    const { user, created } = await upsertAdmin(parsed.data, handle.db);
    console.log(
      created
        ? `Administrateur créé : ${user.email} (${handle.kind}: ${handle.location}).`
        : `Mot de passe réinitialisé pour ${user.email} ; ses sessions ouvertes sont fermées (${handle.kind}: ${handle.location}).`,
    );
  } finally {
    await handle.close();
  }
} catch (error) {
  fail(error instanceof DataDirBusyError ? error.message : `Échec : ${(error as Error).message}`);
}
