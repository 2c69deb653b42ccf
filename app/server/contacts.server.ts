import { sql } from "drizzle-orm";
import type { ContactInput } from "~/lib/contact";
import { db, type Database } from "./db.server";
import { contactRequests, offers } from "./schema.server";

/**
 * Stores a contact request in one statement. An offer id that matches no row is stored as null
 * (the offer may have been deleted meanwhile): the lead is never lost over it.
 */
export async function createContactRequest(input: ContactInput, database: Database = db()) {
  const [row] = await database
    .insert(contactRequests)
    .values({
      name: input.name,
      email: input.email,
      phone: input.phone,
      message: input.message,
      offerId:
        input.offer === null
          ? null
          : sql`(select ${offers.id} from ${offers} where ${offers.id} = ${input.offer})`,
    })
    .returning({ id: contactRequests.id });
  return row;
}
