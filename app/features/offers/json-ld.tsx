import { jsonLdText } from "./structured-data";

/** Structured data for search engines. A data block, never executed: no CSP nonce needed. */
export function JsonLd({ data }: { data: unknown }) {
  return (
    <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(data) }} />
  );
}
