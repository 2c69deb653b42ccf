/** Providers that ignore dots in the local part (j.ane@ and jane@ are one mailbox). */
const DOTLESS_DOMAINS: Record<string, string> = {
  "gmail.com": "gmail.com",
  "googlemail.com": "gmail.com",
};

/**
 * The mailbox an address delivers to, as a key for per-recipient limits: case folded, a `+tag`
 * dropped (victim+1@ and Victim+2@ reach one person), and Gmail's dots ignored. Used only to
 * count; the mail still goes to the address as typed.
 */
export function mailboxKey(address: string): string {
  const email = address.trim().toLowerCase();
  const at = email.lastIndexOf("@");
  if (at < 0) return email;
  let local = email.slice(0, at);
  let domain = email.slice(at + 1).replace(/\.$/, "");
  const plus = local.indexOf("+");
  if (plus >= 0) local = local.slice(0, plus);
  if (domain in DOTLESS_DOMAINS) {
    domain = DOTLESS_DOMAINS[domain];
    local = local.replaceAll(".", "");
  }
  return `${local}@${domain}`;
}

/**
 * The domain an address's mail goes to, as a key for per-domain limits: its last two labels
 * (`a.b.example.fr` gives `example.fr`), so that the sub-domains of a catch-all count together. A
 * shared suffix (`co.uk`) then counts as one domain: stricter, never looser.
 */
export function mailDomainKey(address: string): string {
  const email = address.trim().toLowerCase();
  const domain = email.slice(email.lastIndexOf("@") + 1).replace(/\.$/, "");
  return domain.split(".").slice(-2).join(".");
}
