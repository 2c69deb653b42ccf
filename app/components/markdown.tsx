import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";

/** The box around rendered markdown (also written by pages that send it as HTML: MarkdownHtml). */
export const MARKDOWN_CLASS =
  "prose-offer space-y-4 leading-relaxed [&_a]:text-primary [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:pl-4 [&_blockquote]:italic [&_h2]:text-2xl [&_h2]:font-semibold [&_h3]:text-xl [&_h3]:font-semibold [&_ol]:list-decimal [&_ol]:pl-6 [&_table]:w-full [&_table]:text-sm [&_td]:border [&_td]:p-2 [&_th]:border [&_th]:p-2 [&_th]:text-left [&_ul]:list-disc [&_ul]:pl-6";

/** Markdown from the catalogue, without its box. Raw HTML is dropped, never rendered; links open safely. */
export function MarkdownContent({ children }: { children: string }) {
  return (
    <ReactMarkdown
      remarkPlugins={[remarkGfm]}
      skipHtml
      components={{
        a: ({ href, children: text }) => (
          <a href={href} rel="nofollow noopener noreferrer" target="_blank">
            {text}
          </a>
        ),
        img: ({ alt }) => <span>{alt}</span>,
      }}
    >
      {children}
    </ReactMarkdown>
  );
}

/** Markdown from the catalogue, in its box. */
export function Markdown({ children }: { children: string }) {
  return (
    <div className={MARKDOWN_CLASS}>
      <MarkdownContent>{children}</MarkdownContent>
    </div>
  );
}

/**
 * Markdown already rendered on the server (app/components/markdown.server.tsx, kept per text), in the
 * same box: for pages that do not hydrate, where the browser never renders it again.
 */
export function MarkdownHtml({ html }: { html: string }) {
  return <div className={MARKDOWN_CLASS} dangerouslySetInnerHTML={{ __html: html }} />;
}
