import { useEffect } from "react";
import { showToast } from "~/client/toast";
import type { ToastMessage } from "~/lib/admin-messages";
import type { ActionFailure } from "~/platform/form.server";

/** The toast of an action's answer when it is an ActionFailure (none for any other answer). */
export function failureToast(result: ActionFailure | object): ToastMessage | undefined {
  return "error" in result && result.error
    ? { type: "error", title: result.error, description: result.description }
    : undefined;
}

/**
 * Shows what an action answered as a toast, once per answer: a page's `actionData` or a fetcher's
 * `data`, with `toToast` picking the message (undefined: no toast). Pass the navigation's or the
 * fetcher's `state` so that nothing shows while a submission is under way: the site's one toast
 * (app/client/toast.ts). Admin pages only: public pages do not hydrate, their feedback is
 * rendered by the server.
 */
export function useActionToast<T>(
  result: T | undefined,
  toToast: (result: T) => ToastMessage | undefined,
  state = "idle",
) {
  useEffect(() => {
    if (state !== "idle" || result === undefined) return;
    const message = toToast(result);
    if (message) showToast(message);
    // Once per answer: toToast is usually a new function at each render, the answer is not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state, result]);
}
