import { eq } from "drizzle-orm";
import { sendReply } from "../../app/features/conversation/conversation.server";
import { replyAddress } from "../../app/features/conversation/reply-address.server";
import { createContactRequest } from "../../app/features/desk/contacts.server";
import type { Database } from "../../app/platform/db.server";
import { requestMessages, webhookEndpoints } from "../../app/platform/schema.server";

/**
 * A request the team wrote to (its message's Message-ID: `ours`), an endpoint that wants
 * `request.replied`, and the request's tagged reply address: what a buyer's reply answers.
 */
export async function requestAwaitingReply(
  db: Database,
  admin: { id: number; email: string },
): Promise<{ requestId: number; reference: string; ours: string; tagged: string }> {
  const request = await createContactRequest(
    {
      name: "Jeanne Achat",
      email: "jeanne@example.fr",
      phone: null,
      message: "Devis",
      offer: null,
    },
    db,
  );
  await db.insert(webhookEndpoints).values({
    url: "https://crm.example.com/hook",
    events: ["request.replied"],
    secret: "whsec_dGVzdA==",
  });
  const sent = await sendReply(
    request.id,
    { subject: `Votre demande ${request.reference}`, body: "Bonjour", attachQuote: false },
    { id: admin.id, email: admin.email, role: "admin" },
    db,
  );
  if (sent.kind !== "queued") throw new Error(sent.kind);
  const [message] = await db
    .select()
    .from(requestMessages)
    .where(eq(requestMessages.id, sent.messageId));
  return {
    requestId: request.id,
    reference: request.reference,
    ours: message.messageId,
    tagged: await replyAddress("ventes@example.fr", request.reference, db),
  };
}
