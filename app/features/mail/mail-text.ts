// What every mail template needs: safe header text, escaped HTML and the request's admin link.

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
