import { escapeHtml, type RenderedMail } from "~/features/mail/mail-text";
import { mailDocument } from "~/features/quotes/quote-mail";

/** One of the LOA file's mails: its lines as paragraphs, and a link under them. */
export function renderLeaseFileMail(
  subject: string,
  lines: string[],
  link?: { url: string; text: string },
): RenderedMail {
  const text = [...lines, "", ...(link ? [`${link.text} : ${link.url}`, ""] : [])].join("\n");
  const html = mailDocument(
    subject,
    `${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("\n")}${
      link ? `\n<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.text)}</a></p>` : ""
    }`,
  );
  return { subject, text, html };
}
