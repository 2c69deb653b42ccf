// What every mail template needs: safe header text, escaped HTML, the house frame, a mail of a few
// paragraphs and the request's admin link.

export type RenderedMail = { subject: string; text: string; html: string };

/**
 * One line for a header: control characters (CR/LF above all, which would start a new header in
 * a hand-built message) become spaces. Nodemailer encodes headers too; this keeps the subject
 * readable and single-line whatever a restored or hand-edited row holds.
 */
export function headerText(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").trim();
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** Absolute address of the request's admin page. */
export function contactAdminUrl(baseUrl: string, id: number): string {
  return `${baseUrl.replace(/\/+$/, "")}/admin/contacts/${id}`;
}

/** A mail's HTML part: the subject as title, the body in the house font. */
export const mailDocument = (subject: string, body: string) => `<!doctype html>
<html lang="fr">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#111">
${body}
</body>
</html>
`;

/**
 * A mail of a few lines, as paragraphs, and a link under them: `text` names it in the text part,
 * `inHtml` (when given, our own words as HTML) in the HTML part.
 */
export function paragraphsMail(
  subject: string,
  lines: string[],
  link?: { url: string; text: string; inHtml?: string },
): RenderedMail {
  const text = [...lines, "", ...(link ? [`${link.text} : ${link.url}`, ""] : [])].join("\n");
  const html = mailDocument(
    subject,
    `${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("\n")}${
      link
        ? `\n<p><a href="${escapeHtml(link.url)}">${link.inHtml ?? escapeHtml(link.text)}</a></p>`
        : ""
    }`,
  );
  return { subject, text, html };
}

/** The link under a mail to the team: the request's admin page. */
export function requestLink(baseUrl: string, id: number) {
  return {
    url: contactAdminUrl(baseUrl, id),
    text: "Voir la demande",
    inHtml: "Voir la demande dans l'administration",
  };
}
