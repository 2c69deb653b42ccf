import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { themeBootScript } from "./theme";

/** Runs the boot script against a minimal document, storage and media query. */
function boot(stored: string | null, systemDark: boolean) {
  const classes = new Set<string>();
  const storage = new Map<string, string>(stored === null ? [] : [["site-theme", stored]]);
  let onSystemChange = () => {};
  let onClick = (_event: { target: unknown }) => {};
  const media = {
    matches: systemDark,
    addEventListener: (_type: string, listener: () => void) => (onSystemChange = listener),
  };
  class Element {
    constructor(readonly isToggle: boolean) {}
    closest(selector: string) {
      return this.isToggle && selector === "[data-theme-toggle]" ? this : null;
    }
  }
  const root = {
    classList: {
      add: (c: string) => classes.add(c),
      contains: (c: string) => classes.has(c),
      toggle: (c: string, on: boolean) => (on ? classes.add(c) : classes.delete(c)),
    },
    style: { colorScheme: "" },
  };
  runInNewContext(themeBootScript("site-theme"), {
    Element,
    document: {
      documentElement: root,
      addEventListener: (_type: string, listener: typeof onClick) => (onClick = listener),
    },
    localStorage: {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => storage.set(k, v),
    },
    matchMedia: () => media,
  });
  return {
    dark: () => classes.has("dark"),
    js: () => classes.has("js"),
    scheme: () => root.style.colorScheme,
    stored: () => storage.get("site-theme") ?? null,
    systemTurns: (dark: boolean) => {
      media.matches = dark;
      onSystemChange();
    },
    click: (onToggle: boolean) => onClick({ target: new Element(onToggle) }),
  };
}

describe("themeBootScript", () => {
  it("marks the page as scripted", () => {
    expect(boot(null, false).js()).toBe(true);
  });

  it("applies the stored choice, else the system's", () => {
    expect(boot("dark", false).dark()).toBe(true);
    expect(boot("light", true).dark()).toBe(false);
    expect(boot(null, true).dark()).toBe(true);
    expect(boot("system", false).dark()).toBe(false);
    expect(boot(null, true).scheme()).toBe("dark");
    expect(boot("light", false).scheme()).toBe("light");
  });

  it("follows the system only while no choice is stored", () => {
    const following = boot(null, false);
    following.systemTurns(true);
    expect(following.dark()).toBe(true);
    const chosen = boot("light", false);
    chosen.systemTurns(true);
    expect(chosen.dark()).toBe(false);
  });

  it("flips and stores the theme on a toggle click, ignores other clicks", () => {
    const page = boot(null, true);
    page.click(false);
    expect(page.dark()).toBe(true);
    expect(page.stored()).toBe(null);
    page.click(true);
    expect(page.dark()).toBe(false);
    expect(page.stored()).toBe("light");
    page.systemTurns(true);
    expect(page.dark()).toBe(false);
    page.click(true);
    expect(page.stored()).toBe("dark");
  });
});
