import type { MetaDescriptor } from "react-router";

/** Admin pages: a title and noindex (the X-Robots-Tag header says the same). */
export function adminMeta(title: string): MetaDescriptor[] {
  return [{ title: `${title} — Administration` }, { name: "robots", content: "noindex, nofollow" }];
}
