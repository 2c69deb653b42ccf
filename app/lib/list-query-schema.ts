import { z } from "zod";
import { cleanSearchTerm } from "./list-query";

// A list view's query parameters read leniently: a bad value falls back to the default view
// instead of failing the page (the address codecs are in list-query.ts, without zod).

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

/** A list's page number from a query string: digits, at least 1, at most `max`; else page 1. */
export const pageSchema = (max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,9}$/)
    .transform((v) => Math.min(Math.max(1, Number(v)), max))
    .catch(1);
