// A readable name for the browser of a session (`Mon compte`): display only, never a decision.

const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/Firefox\/|FxiOS/, "Firefox"],
  [/Chrom(e|ium)\/|CriOS/, "Chrome"],
  [/Safari\//, "Safari"],
  [/curl\//, "curl"],
];

const SYSTEMS: [RegExp, string][] = [
  [/Android/, "Android"],
  [/iPhone|iPad|iPod/, "iOS"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];

function first(list: [RegExp, string][], text: string): string | undefined {
  return list.find(([pattern]) => pattern.test(text))?.[1];
}

/** 'Firefox sur Linux', 'Chrome', 'Navigateur inconnu'. */
export function describeUserAgent(userAgent: string | null | undefined): string {
  if (!userAgent) return "Navigateur inconnu";
  const browser = first(BROWSERS, userAgent) ?? "Navigateur inconnu";
  const system = first(SYSTEMS, userAgent);
  return system ? `${browser} sur ${system}` : browser;
}
