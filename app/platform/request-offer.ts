/** The offer columns of a contact request joined with its offer (null when none or deleted). */
export type RequestOfferColumns = {
  currentTitle: string | null;
  currentReference: string | null;
  snapshotTitle: string | null;
  snapshotReference: string | null;
};

/**
 * The offer a request is about: as it is now, or the snapshot taken with the request once the
 * offer is deleted (`deleted`); null for a general request.
 */
export function requestOffer(
  row: RequestOfferColumns,
): { title: string; reference: string; deleted: boolean } | null {
  if (row.currentTitle !== null) {
    return { title: row.currentTitle, reference: row.currentReference ?? "", deleted: false };
  }
  if (row.snapshotTitle !== null) {
    return { title: row.snapshotTitle, reference: row.snapshotReference ?? "", deleted: true };
  }
  return null;
}
