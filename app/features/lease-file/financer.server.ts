// The LOA file after its documents (issue 41): handed to the financer, its answer recorded, the
// delivered equipment entered for the buyer's delivery report. Each step checks the request's
// status with the request locked, moves it with its history line, and tells the webhooks.
import { eq, sql } from "drizzle-orm";
import { parisDay } from "~/lib/dates";
import type { ContactStatus } from "~/lib/domain";
import { now } from "~/platform/clock.server";
import { db, type Database } from "~/platform/db.server";
import {
  contactRequests,
  leaseFiles,
  mailOutbox,
  type DeliveredItem,
} from "~/platform/schema.server";
import { MAIL_KINDS, notifyMailWorkers } from "~/features/mail/mail-outbox.server";
import { moveStatus } from "~/features/quotes/quote-sending.server";
import { enqueueWebhookEvent } from "~/features/webhooks/webhooks.server";
import { signedDeliveryReport } from "./delivery-report.server";
import { leaseFileOf } from "./lease-file.server";
import { readLeaseFinancer } from "./lease-settings.server";

type Actor = { id: number; email: string };

export type StepOutcome<T = object> =
  ({ kind: "done" } & T) | { kind: "missing" } | { kind: "refused"; status: ContactStatus };

/** The request and its file, locked; undefined when either is gone. */
async function lockedFile(tx: Database, contactRequestId: number) {
  const [row] = await tx
    .select({ status: contactRequests.status, file: leaseFiles })
    .from(contactRequests)
    .innerJoin(leaseFiles, eq(leaseFiles.contactRequestId, contactRequests.id))
    .where(eq(contactRequests.id, contactRequestId))
    .for("update");
  return row;
}

async function move(
  tx: Database,
  contactRequestId: number,
  from: ContactStatus,
  to: ContactStatus,
  actor: { id: number | null; email: string },
) {
  await moveStatus(tx, contactRequestId, from, to, actor);
  await enqueueWebhookEvent("request.updated", contactRequestId, tx, { changes: ["status"] });
}

/**
 * `Transmettre au financeur` of a complete file: who sent it, when, to which address (the
 * financer's as set in `Barème LOA`, none: the team downloads the archive and sends it itself),
 * `Transmis au financeur`, and the mail with the archive, built when it leaves.
 */
export async function handOffLeaseFile(
  contactRequestId: number,
  actor: Actor,
  database: Database = db(),
): Promise<StepOutcome<{ sentTo: string | null }>> {
  const financer = await readLeaseFinancer(database);
  return database.transaction(async (tx) => {
    const locked = await lockedFile(tx, contactRequestId);
    if (!locked) return { kind: "missing" } as const;
    const file = await leaseFileOf(contactRequestId, tx);
    if (locked.status !== "file_complete" || !file?.complete) {
      return { kind: "refused", status: locked.status } as const;
    }
    await tx
      .update(leaseFiles)
      .set({
        financerSentAt: sql`now()`,
        financerSentById: actor.id,
        financerSentTo: financer.email,
      })
      .where(eq(leaseFiles.contactRequestId, contactRequestId));
    await move(tx, contactRequestId, locked.status, "file_sent", actor);
    if (financer.email) {
      await tx.insert(mailOutbox).values({ contactRequestId, kind: MAIL_KINDS.leaseFileFinancer });
      await notifyMailWorkers(tx);
    }
    return { kind: "done", sentTo: financer.email } as const;
  });
}

export type FinancerAnswer = {
  answer: "approved" | "refused";
  /** The day of the financer's answer, YYYY-MM-DD. */
  answeredOn: string;
  reference: string | null;
};

/** The financer's `Accord` or `Refus`, with its date and reference, once the file was sent. */
export async function recordFinancerAnswer(
  contactRequestId: number,
  answer: FinancerAnswer,
  actor: Actor,
  database: Database = db(),
): Promise<StepOutcome> {
  return database.transaction(async (tx) => {
    const locked = await lockedFile(tx, contactRequestId);
    if (!locked) return { kind: "missing" } as const;
    if (locked.status !== "file_sent") return { kind: "refused", status: locked.status } as const;
    await tx
      .update(leaseFiles)
      .set({
        financerAnswer: answer.answer,
        financerAnsweredOn: answer.answeredOn,
        financerReference: answer.reference,
        financerRecordedById: actor.id,
      })
      .where(eq(leaseFiles.contactRequestId, contactRequestId));
    const to = answer.answer === "approved" ? "financer_approved" : "financer_refused";
    await move(tx, contactRequestId, locked.status, to, actor);
    return { kind: "done" } as const;
  });
}

/**
 * The equipment delivered, with its serial numbers, for the buyer's `PV de livraison`: after the
 * financer's agreement, until the buyer signs (entered again, the buyer's page shows the new lines
 * and a report signed against the old ones is refused).
 */
export async function enterDeliveredItems(
  contactRequestId: number,
  items: DeliveredItem[],
  database: Database = db(),
): Promise<StepOutcome> {
  return database.transaction(async (tx) => {
    const locked = await lockedFile(tx, contactRequestId);
    if (!locked) return { kind: "missing" } as const;
    if (locked.status !== "financer_approved" || locked.file.deliverySignedAt) {
      return { kind: "refused", status: locked.status } as const;
    }
    await tx
      .update(leaseFiles)
      .set({ deliveredItems: items, deliveryEnteredAt: sql`clock_timestamp()` })
      .where(eq(leaseFiles.contactRequestId, contactRequestId));
    await tx
      .update(contactRequests)
      .set({ updatedAt: sql`now()` })
      .where(eq(contactRequests.id, contactRequestId));
    return { kind: "done" } as const;
  });
}

/** What the request page's LOA card shows beyond the documents: the financer, the signed report. */
export type LeaseSteps = {
  financer: { name: string; email: string | null };
  deliveryReport: { id: number; signedAt: Date; name: string; role: string; sha256: string } | null;
  /** Today in Paris (YYYY-MM-DD): the answer's date by default, and its latest. */
  today: string;
};

export async function leaseStepsOf(
  contactRequestId: number,
  database: Database = db(),
): Promise<LeaseSteps> {
  const [financer, deliveryReport] = await Promise.all([
    readLeaseFinancer(database),
    signedDeliveryReport(contactRequestId, database),
  ]);
  return { financer, deliveryReport, today: parisDay(now()) };
}
