import { useRouteLoaderData } from "react-router";
import type { FlashToast } from "../lib/admin-messages";
import type { SiteConfig } from "../lib/site";

export type RootData = { site: SiteConfig; year: number; toast?: FlashToast | null };

/** The root loader's data: site identity and the current year (Europe/Paris). */
export function useRootData(): RootData {
  const data = useRouteLoaderData("root") as RootData | undefined;
  if (!data) throw new Error("useRootData must be used below the root route");
  return data;
}
