import type { SendMailOptions } from "nodemailer";
import type { Database } from "~/platform/db.server";
import type { MailOutboxRow } from "~/platform/schema.server";
import type { MailKind } from "./mail-outbox.server";
import type { MailSettings } from "./mail-settings.server";

// How a feature's mail leaves: the worker (mail.server.ts) claims a row of the outbox and calls the
// renderer of its kind, found in the table app/mail-kinds.server.ts. The mail infrastructure
// imports no feature: each feature renders its own kinds.

/** What a renderer is given: the worker's settings, the domain of the Message-IDs, the database. */
export type MailContext = {
  settings: MailSettings;
  messageDomain: string;
  database: Database;
};

/**
 * A mail as it leaves: the message, and what the `mail sent` log line says of it besides its id
 * (with `requestedAt`, also how long after the request it left: `sinceRequestMs`). Or why it cannot
 * leave: the mail is marked failed at once with that reason, shown on the dashboard (in French).
 */
export type RenderedMail =
  | { message: SendMailOptions; logged: Record<string, unknown>; requestedAt?: Date }
  | { failed: string };

/** Renders a mail of one kind when it leaves, from its feature's data as it is then. */
export type MailRenderer = (row: MailOutboxRow, context: MailContext) => Promise<RenderedMail>;

/** The renderer of every kind (app/mail-kinds.server.ts), given to the worker when it starts. */
export type MailRenderers = Readonly<Record<MailKind, MailRenderer>>;

/** A feature's message, or its reason not to leave, as the worker takes it. */
export function renderedMail(
  prepared: SendMailOptions | { failed: string },
  logged: Record<string, unknown>,
): RenderedMail {
  return "failed" in prepared ? prepared : { message: prepared, logged };
}

/** A mail for the team about a request: its owner, or NOTIFY_EMAIL when nobody owns it. */
export function ownerOrTeam(
  owner: string | null | undefined,
  team: string[],
): { to: string[] } | { failed: string } {
  const to = owner ? [owner] : team;
  return to.length ? { to } : { failed: "Aucun destinataire (NOTIFY_EMAIL)" };
}
