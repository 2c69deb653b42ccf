import { FormAlert } from "~/components/ui/form-alert";
import { failureToast, useActionToast } from "~/hooks/use-action-toast";
import { useHydrated } from "~/hooks/use-hydrated";
import type { ActionFailure } from "~/lib/field-errors";

/**
 * What an admin action answered when it is an ActionFailure: a toast once hydrated, an alert in
 * the page before (no JavaScript), or both with `always`. Other answers show nothing.
 */
export function ActionFailureAlert({
  answer,
  state,
  always = false,
  className,
}: {
  answer: ActionFailure | object | null | undefined;
  /** The navigation's or fetcher's state: nothing shows while a submission is under way. */
  state?: string;
  always?: boolean;
  className?: string;
}) {
  const hydrated = useHydrated();
  useActionToast(answer ?? undefined, failureToast, state);
  const failure = answer && "error" in answer ? answer : undefined;
  if (!failure || (hydrated && !always)) return null;
  return (
    <FormAlert className={className} title={failure.error} description={failure.description} />
  );
}
