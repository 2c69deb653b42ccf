import { useRouteLoaderData } from "react-router";

/**
 * The visit's origin as the public layout read it (issue 42), to carry in the site's links and
 * forms (`withSource`); null when the visit has none.
 */
export function useVisitSource(): string | null {
  const data = useRouteLoaderData("routes/public/layout") as { src?: string } | undefined;
  return data?.src || null;
}
