import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { ConfirmDialog } from "./confirm-dialog";

// Rendered on the server, as a browser without JavaScript gets it: the question is a step of the
// page, never a dialog.
function render(open: boolean) {
  const Stub = createRoutesStub([
    {
      path: "/admin/users",
      Component: () => (
        <ConfirmDialog
          open={open}
          id="confirm-remove"
          title="Supprimer cet administrateur ?"
          description="a@example.fr ne pourra plus se connecter."
          inlineDescription="a@example.fr"
          action="/admin/users"
          fields={{ intent: "remove", id: 7 }}
          confirmLabel="Supprimer"
          cancelTo="/admin/users"
        />
      ),
    },
  ]);
  return renderToStaticMarkup(<Stub initialEntries={["/admin/users"]} />);
}

describe("ConfirmDialog without JavaScript", () => {
  it("asks in the page: the heading, the text, the form and a way back", () => {
    const html = render(true);
    expect(html).toContain('<section aria-labelledby="confirm-remove"');
    expect(html).toContain('<h2 id="confirm-remove"');
    expect(html).toContain("<p>a@example.fr</p>");
    expect(html).not.toContain("ne pourra plus se connecter");
    expect(html).toMatch(/<form [^>]*action="\/admin\/users" method="post">/);
    expect(html).toContain('<input type="hidden" name="intent" value="remove"/>');
    expect(html).toContain('<input type="hidden" name="id" value="7"/>');
    expect(html).toMatch(/<a [^>]*href="\/admin\/users"[^>]*>Annuler<\/a>/);
    expect(html).not.toContain('role="dialog"');
  });

  it("renders nothing while closed", () => {
    expect(render(false)).toBe("");
  });
});
