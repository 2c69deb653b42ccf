import {
  ADMIN,
  createAdmin,
  sessionCookieFor,
  signedInAdmin,
  snapshot,
  snapshotFingerprint,
} from "./admin";
import { useTestDatabase } from "./use-test-database";

/**
 * The database of an integration file about admin pages, emptied before each test, with the
 * admin helpers of admin.ts bound to it (createAdmin(), sessionCookieFor(id), signedInAdmin(),
 * snapshot(), snapshotFingerprint()). Call them in tests and hooks only, like the database.
 */
export function useAdminSuite() {
  const database = useTestDatabase({ truncate: true });
  return {
    database,
    createAdmin: (credentials = ADMIN) => createAdmin(database.db, credentials),
    sessionCookieFor: (userId: number) => sessionCookieFor(userId, database.db),
    signedInAdmin: (credentials = ADMIN) => signedInAdmin(database.db, credentials),
    snapshot: () => snapshot(database.db),
    snapshotFingerprint: () => snapshotFingerprint(database.db),
  };
}
