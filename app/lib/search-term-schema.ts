import { z } from "zod";

/**
 * A search box's text from a query string: control characters become spaces, trimmed, cut to
 * `max`; anything unreadable clears the search instead of failing the page.
 */
export const searchTermSchema = (max: number) =>
  z
    .string()
    .transform((v) =>
      v
        // eslint-disable-next-line no-control-regex
        .replace(/[\u0000-\u001f\u007f]/g, " ")
        .trim()
        .slice(0, max),
    )
    .optional()
    .catch(undefined);
