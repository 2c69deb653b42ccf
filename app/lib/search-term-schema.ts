import { z } from "zod";
import { cleanSearchTerm } from "./search-term";

/**
 * A search box's text from a query string (see cleanSearchTerm); anything unreadable clears the
 * search instead of failing the page.
 */
export const searchTermSchema = (max: number) =>
  z
    .string()
    .transform((v) => cleanSearchTerm(v, max))
    .optional()
    .catch(undefined);
