import { isRouteErrorResponse } from "react-router";
import { RequestReference } from "~/hooks/request-id";
import { ERROR_MESSAGES, errorCopy, MESSAGES } from "~/lib/messages";

/** A message our own code put in a thrown data({ message }) (never React Router's internal text). */
function ownMessage(data: unknown): string | undefined {
  if (data && typeof data === "object") {
    const { message, error } = data as { message?: unknown; error?: unknown };
    if (typeof message === "string") return message;
    if (typeof error === "string") return error;
  }
  return undefined;
}

/** The French error page: status-specific title and text, and the request id to quote. */
export function ErrorPage({ error, inLayout = false }: { error: unknown; inLayout?: boolean }) {
  // Below the site layout the page already has its <main>.
  const Container = inLayout ? "div" : "main";
  const response = isRouteErrorResponse(error) ? error : undefined;
  const notFound = response?.status === 404;
  const page = errorCopy(response?.status);
  const title = notFound ? MESSAGES.notFound : page.title;
  const detail = notFound ? null : ((response && ownMessage(response.data)) ?? page.detail);
  return (
    <Container className="container mx-auto flex min-h-[60vh] flex-col items-center justify-center gap-4 px-4 text-center">
      <title>{`${title}`}</title>
      <h1 className="text-3xl font-bold">{title}</h1>
      {detail ? <p className="text-muted-foreground">{detail}</p> : null}
      {notFound ? null : <RequestReference />}
      <a href="/" className="text-primary underline underline-offset-4">
        {ERROR_MESSAGES.backHome}
      </a>
    </Container>
  );
}
