import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Field, RequiredCheckbox } from "./field";
import { Input } from "./input";

const render = (props: Partial<Parameters<typeof Field>[0]> = {}) =>
  renderToStaticMarkup(
    <Field id="email" label="Email *" {...props}>
      <Input name="email" />
    </Field>,
  );

describe("Field", () => {
  it("labels its control and marks nothing invalid without an error", () => {
    const html = render();
    expect(html).toContain('<label class="text-sm font-medium leading-none');
    expect(html).toContain('for="email"');
    expect(html).toContain('id="email"');
    expect(html).not.toContain("aria-invalid");
    expect(html).not.toContain("aria-describedby");
  });

  it("describes the control by its hint", () => {
    const html = render({ description: "12 caractères au moins." });
    expect(html).toContain('aria-describedby="email-hint"');
    expect(html).toContain(
      '<p id="email-hint" class="text-xs text-muted-foreground">12 caractères',
    );
  });

  it("wires the error first, then the hint, and marks the control invalid", () => {
    const html = render({ description: "Aide", error: "Adresse invalide" });
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('aria-describedby="email-error email-hint"');
    expect(html).toContain(
      '<p id="email-error" class="text-sm text-destructive">Adresse invalide</p>',
    );
  });

  it("takes other ids for its messages", () => {
    const html = render({ error: "Requis", errorId: "title-error" });
    expect(html).toContain('aria-describedby="title-error"');
    expect(html).toContain('id="title-error"');
  });
});

describe("RequiredCheckbox", () => {
  const box = (error?: string) =>
    renderToStaticMarkup(
      <RequiredCheckbox id="quote-agree" name="agree" error={error}>
        J&apos;accepte ce devis.
      </RequiredCheckbox>,
    );

  it("is a required box named by its label's text", () => {
    const html = box();
    expect(html).toMatch(/<label [^>]*><input type="checkbox" [^>]*\/><span>/);
    expect(html).toContain('required="" name="agree"');
    expect(html).toContain("<span>J&#x27;accepte ce devis.</span></label>");
    expect(html).not.toContain("aria-describedby");
  });

  it("points the box at the server's message", () => {
    const html = box("Cochez la case pour accepter.");
    expect(html).toContain('aria-describedby="quote-agree-error"');
    expect(html).toContain(
      '<p id="quote-agree-error" class="text-sm text-destructive">Cochez la case pour accepter.</p>',
    );
  });
});
