import type { ReactNode } from "react";

/** The class of a link inside the legal pages' text. */
export const legalLink = "font-medium text-primary underline-offset-4 hover:underline";

/** One titled section of a legal page (mentions légales, confidentialité), named by its heading. */
export function LegalSection({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
