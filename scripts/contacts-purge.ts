// npm run contacts:purge [-- --dry-run]
// Deletes the contact requests past their retention (RETENTION_MONTHS after their last activity;
// suspected spam after 30 days) with their notes, history and mails, and the availability alerts
// past theirs (unconfirmed: 7 days; confirmed: 6 months), and prints the counts.
// With DATABASE_URL it runs beside the servers; on the embedded database the server must be
// stopped (the command says so and changes nothing).
import { parseArgs } from "node:util";
import { retentionLabel, SPAM_RETENTION_DAYS } from "../app/platform/retention";
import { CONFIRMED_ALERT_MONTHS, UNCONFIRMED_ALERT_DAYS } from "../app/features/alerts/alerts";
import { purgeAlerts } from "../app/features/alerts/alerts.server";
import { DataDirBusyError } from "../app/platform/db.server";
import type { DeletionCounts } from "../app/features/privacy/request-deletion.server";
import { purgeContactRequests } from "../app/features/privacy/retention.server";
import { startDatabase } from "../app/features/setup/startup.server";

process.env.LOG_LEVEL ??= "warn";

const USAGE = "Usage : npm run contacts:purge [-- --dry-run]";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let dryRun = false;
try {
  const { values } = parseArgs({ options: { "dry-run": { type: "boolean" } }, strict: true });
  dryRun = values["dry-run"] ?? false;
} catch (error) {
  fail(`Arguments invalides : ${(error as Error).message}\n${USAGE}`);
}

function line(label: string, counts: DeletionCounts): string {
  return `${label} : ${counts.requests} demande(s), ${counts.notes} note(s), ${counts.statusChanges} changement(s) de statut, ${counts.mails} e-mail(s), ${counts.quotes} devis, ${counts.messages} message(s), ${counts.documents} pièce(s) de dossier LOA`;
}

try {
  const handle = await startDatabase({ seed: false, initialAdmin: false });
  try {
    const result = await purgeContactRequests({ dryRun }, handle.db);
    const verb = dryRun ? "À supprimer (simulation, rien n'est supprimé)" : "Supprimé";
    console.log(
      `Conservation : ${retentionLabel(result.retentionMonths)} après la dernière activité ; spam présumé : ${SPAM_RETENTION_DAYS} jours (${handle.kind}: ${handle.location}).`,
    );
    console.log(line(`${verb} — demandes expirées`, result.expired));
    console.log(line(`${verb} — spam présumé`, result.spam));
    const alerts = await purgeAlerts({ dryRun }, handle.db);
    console.log(
      `${verb} — alertes de disponibilité : ${alerts.unconfirmed} non confirmée(s) depuis ${UNCONFIRMED_ALERT_DAYS} jours, ${alerts.confirmed} confirmée(s) depuis ${CONFIRMED_ALERT_MONTHS} mois`,
    );
  } finally {
    await handle.close();
  }
} catch (error) {
  fail(error instanceof DataDirBusyError ? error.message : `Échec : ${(error as Error).message}`);
}
