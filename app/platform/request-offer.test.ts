import { describe, expect, it } from "vitest";
import { requestOffer } from "./request-offer";

const none = {
  currentTitle: null,
  currentReference: null,
  snapshotTitle: null,
  snapshotReference: null,
};

describe("requestOffer", () => {
  it("prefers the offer as it is now over the snapshot", () => {
    expect(
      requestOffer({
        currentTitle: "Nouveau titre",
        currentReference: "SRV-2",
        snapshotTitle: "Ancien titre",
        snapshotReference: "SRV-1",
      }),
    ).toEqual({ title: "Nouveau titre", reference: "SRV-2", deleted: false });
  });
  it("falls back to the snapshot once the offer is deleted", () => {
    expect(requestOffer({ ...none, snapshotTitle: "Ancien", snapshotReference: "OLD" })).toEqual({
      title: "Ancien",
      reference: "OLD",
      deleted: true,
    });
  });
  it("is null for a general request", () => {
    expect(requestOffer(none)).toBeNull();
  });
});
