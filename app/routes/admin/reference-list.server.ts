// The refusals of an admin page that keeps a list of names with ReferenceList (datacenters.tsx,
// search-synonyms.tsx): the same three answers, each page in its own words.
import { firstFieldError, type FieldErrors } from "~/lib/field-errors";
import { actionFailure } from "~/platform/form.server";

type ListMessages = Record<string, string> & {
  addFailed: string;
  removeFailed: string;
  missing: string;
};

/** `field` is the add form's one field, where a refused name's message shows. */
export function listRefusals<M extends ListMessages>(messages: M, field: string) {
  return {
    /** A form that did not parse: the add form's first message (else `fallback`), or a gone row. */
    unread(submission: { values: { intent: string }; fieldErrors: FieldErrors }, fallback: string) {
      const removing = submission.values.intent === "remove";
      const { fieldErrors } = submission;
      return actionFailure(400, {
        error: removing ? messages.removeFailed : messages.addFailed,
        description: removing ? messages.missing : firstFieldError(fieldErrors, fallback),
        fieldErrors,
      });
    },
    /** An add its command refused, by the kind it answered (`duplicate`: a conflict). */
    add(kind: Extract<keyof M, string>) {
      const description = messages[kind];
      return actionFailure(kind === "duplicate" ? 409 : 400, {
        error: messages.addFailed,
        description,
        fieldErrors: { [field]: description },
      });
    },
    missing() {
      return actionFailure(404, { error: messages.removeFailed, description: messages.missing });
    },
  };
}
