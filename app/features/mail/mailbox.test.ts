import { describe, expect, it } from "vitest";
import { mailDomainKey, mailboxKey } from "./mailbox";

describe("mailboxKey", () => {
  it("folds case and +tag variants into one mailbox", () => {
    const variants = [
      "victim@example.fr",
      "Victim@Example.FR",
      "victim+1@example.fr",
      "VICTIM+promo+2@example.fr",
      " victim+@example.fr ",
      "victim@example.fr.",
    ];
    expect(new Set(variants.map(mailboxKey))).toEqual(new Set(["victim@example.fr"]));
  });

  it("ignores dots at Gmail only, where they reach the same mailbox", () => {
    expect(mailboxKey("j.a.n.e+x@googlemail.com")).toBe("jane@gmail.com");
    expect(mailboxKey("Jane@GMail.com")).toBe("jane@gmail.com");
    expect(mailboxKey("j.ane@example.fr")).toBe("j.ane@example.fr");
  });

  it("keeps different mailboxes apart", () => {
    expect(mailboxKey("paul@example.fr")).not.toBe(mailboxKey("paule@example.fr"));
    expect(mailboxKey("paul@example.fr")).not.toBe(mailboxKey("paul@example.com"));
  });
});

describe("mailDomainKey", () => {
  it("counts an address by its domain's last two labels, sub-domains together", () => {
    for (const address of [
      "a@example.fr",
      "B@Example.FR",
      "c@mail.example.fr",
      "d@x.y.EXAMPLE.fr.",
      " e+tag@example.fr ",
    ]) {
      expect(mailDomainKey(address), address).toBe("example.fr");
    }
    expect(mailDomainKey("a@example.com")).toBe("example.com");
    expect(mailDomainKey("a@bbc.co.uk")).toBe("co.uk");
  });
});
