import { eq } from "drizzle-orm";
import { convert } from "html-to-text";
import sanitizeHtml from "sanitize-html";
import { escapeHtml } from "~/features/mail/mail-text";
import { db, type Database } from "~/platform/db.server";
import { requestMessages } from "~/platform/schema.server";

// The HTML of a message read from the mailbox (issue 40): its text for the conversation, and its
// own layout sanitised once, when stored, to show the team on its own page (no script, no remote
// content, no styles: what a mail may carry to track or to trick its reader is gone).

/** The most HTML read from one message: a longer newsletter is cut (the sanitiser closes tags). */
const HTML_MAX = 500_000;

/** The message's HTML as text: links' text kept (not their address), images left out, no wrap. */
export function textOfHtml(html: string): string {
  return convert(html.slice(0, HTML_MAX), {
    wordwrap: false,
    selectors: [
      { selector: "a", options: { ignoreHref: true } },
      { selector: "img", format: "skip" },
      ...["h1", "h2", "h3", "h4", "h5", "h6"].map((selector) => ({
        selector,
        options: { uppercase: false },
      })),
    ],
  });
}

/** Only a link the team may follow as it is: a web page or an address. */
const SAFE_LINK = /^(https?:\/\/|mailto:)/i;

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    ...["p", "br", "div", "span", "hr", "pre", "code", "blockquote", "address"],
    ...["b", "strong", "i", "em", "u", "s", "strike", "sub", "sup", "small", "mark", "abbr"],
    ...["cite", "q", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd"],
    ...["table", "caption", "colgroup", "col", "thead", "tbody", "tfoot", "tr", "th", "td"],
    "a",
  ],
  allowedAttributes: {
    a: ["href", "title", "rel", "target"],
    abbr: ["title"],
    ol: ["start", "type"],
    col: ["span"],
    colgroup: ["span"],
    td: ["colspan", "rowspan"],
    th: ["colspan", "rowspan", "scope"],
    "*": ["dir", "lang"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  // Their content is code, styles or controls, never the message's words.
  nonTextTags: [
    ...["script", "style", "textarea", "option", "select", "title", "template", "noscript"],
    ...["iframe", "object", "embed", "svg", "math", "xmp", "noembed", "noframes"],
  ],
  disallowedTagsMode: "discard",
  transformTags: {
    // Links open apart, and tell nothing of where they were followed from.
    a: (_tagName, attribs) => {
      const href = (attribs.href ?? "").trim();
      if (!SAFE_LINK.test(href)) return { tagName: "span", attribs: {} };
      const kept: sanitizeHtml.Attributes = { href, rel: "noopener noreferrer", target: "_blank" };
      if (attribs.title) kept.title = attribs.title;
      return { tagName: "a", attribs: kept };
    },
  },
};

/** The HTML as it is stored: the allowlist above, or null when nothing readable is left. */
export function sanitizedHtml(html: string | undefined): string | null {
  if (!html) return null;
  const clean = sanitizeHtml(html.slice(0, HTML_MAX), SANITIZE).trim();
  return clean.replace(/<[^>]*>|&nbsp;|\s/g, "") === "" ? null : clean;
}

/** A stored HTML as a page of its own, in French, with a few styles of ours and nothing else. */
export function htmlDocument(subject: string, html: string): string {
  const title = `Mise en forme d'origine : ${subject || "(sans objet)"}`;
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;line-height:1.5;max-width:50rem;margin:1.5rem auto;padding:0 1rem;color:#111;background:#fff}
table{border-collapse:collapse;max-width:100%}td,th{padding:.25rem .5rem;vertical-align:top}
blockquote{margin:0 0 0 .5rem;padding-left:1rem;border-left:3px solid #ccc;color:#444}
pre{white-space:pre-wrap}
</style>
</head>
<body>
${html}
</body>
</html>
`;
}

/** A message's stored HTML and subject, when it has one. */
export async function storedHtml(messageId: number, database: Database = db()) {
  const [row] = await database
    .select({ subject: requestMessages.subject, html: requestMessages.html })
    .from(requestMessages)
    .where(eq(requestMessages.id, messageId));
  return row?.html ? { subject: row.subject, html: row.html } : undefined;
}
