import { createContext, useContext, useState } from "react";
import { ERROR_MESSAGES } from "~/lib/messages";

/** The id of the request being rendered (server only), shown on error pages so visitors can quote it. */
export const RequestIdContext = createContext<string | undefined>(undefined);

/**
 * On the server, the id from the context; in the browser, the one the server wrote into the
 * error page being hydrated (read once, so hydration sees the same text).
 */
export function useRequestId(): string | undefined {
  const fromServer = useContext(RequestIdContext);
  const [id] = useState(
    () =>
      fromServer ??
      (typeof document === "undefined"
        ? undefined
        : (document.querySelector("[data-request-id]")?.textContent ?? undefined)),
  );
  return id;
}

export function RequestReference() {
  const id = useRequestId();
  if (!id) return null;
  return (
    <p className="text-sm text-muted-foreground">
      {`${ERROR_MESSAGES.requestReference} : `}
      <code data-request-id>{id}</code>
    </p>
  );
}
