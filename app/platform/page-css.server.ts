/**
 * The stylesheet a public page inlines, cut to the utilities its HTML uses (issue 31: the whole of
 * app/public.css is about 37 KB, a page uses a fraction of it). Everything but the utilities layer
 * (theme, base, components, unlayered rules) is always kept; a utility is kept when one of the
 * classes its selector names is in one of the page's class attributes, or one the page's scripts
 * add (SCRIPT_CLASSES). Classes set outside the HTML and always possible (`dark` on <html> by the
 * theme script, `group`/`peer` markers) never decide alone. Tailwind's `@property` rules, the
 * properties layer's defaults and the theme layer's variables are kept for the variables the kept
 * CSS reads (`var(--…)`) only.
 */
import { memo, type Memo } from "~/lib/memo";

/** Classes app/client/* scripts set on elements they create (none other than these). */
const SCRIPT_CLASSES = ["ml-2", "text-muted-foreground"];
const NOT_DECIDING = new Set(["dark", "js", "group", "peer"]);

/** A style rule (the indexes of the classes that decide it), or an at-rule around more of them. */
type Rule = { text: string; classes: number[] } | { open: string; rules: Rule[] };
/** The sheet around its utilities; `names`: each deciding class name's index. */
type Parsed = { before: string; rules: Rule[]; after: string; names: Map<string, number> };

/** The top-level blocks of minified CSS `text` (a selector or at-rule and its braces). */
function blocks(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) {
      out.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  return out;
}

function rule(text: string, names: Map<string, number>): Rule {
  const open = text.slice(0, text.indexOf("{") + 1);
  if (open.startsWith("@")) {
    return { open, rules: blocks(text.slice(open.length, -1)).map((r) => rule(r, names)) };
  }
  const selector = open.slice(0, -1);
  const classes = [...selector.matchAll(/\.((?:\\.|[\w-])+)/g)]
    .map((m) => m[1].replace(/\\(.)/g, "$1"))
    .filter((name) => !NOT_DECIDING.has(name))
    .map((name) => names.get(name) ?? names.set(name, names.size).get(name)!);
  return { text, classes };
}

function parse(css: string): Parsed | undefined {
  const start = css.indexOf("@layer utilities{");
  if (start === -1) return undefined;
  const body = blocks(css.slice(start))[0];
  const inner = body.slice("@layer utilities{".length, -1);
  const names = new Map<string, number>();
  const rules = blocks(inner).map((r) => rule(r, names));
  return { before: css.slice(0, start), rules, after: css.slice(start + body.length), names };
}

const ENTITIES: Record<string, string> = { amp: "&", gt: ">", lt: "<", quot: '"', "#x27": "'" };
const unescapeHtml = (text: string) =>
  text.includes("&")
    ? text.replace(/&(amp|gt|lt|quot|#x27);/g, (_, e: string) => ENTITIES[e])
    : text;

const parsed = new Map<string, Parsed | undefined>();
const SPACE = /\s+/;

/** Flags `name` in `used` when it is one of the sheet's deciding classes. */
function mark(sheet: Parsed, used: Uint8Array, name: string) {
  const index = sheet.names.get(name);
  if (index !== undefined) used[index] = 1;
}

/**
 * Which of the sheet's deciding classes `html` uses, one flag each: its class attributes read with
 * indexOf (a page is 50-70 KB of HTML and this runs on every uncached render).
 */
function usedClasses(sheet: Parsed, html: string): Uint8Array {
  const used = new Uint8Array(sheet.names.size);
  for (let at = html.indexOf('class="'); at !== -1; at = html.indexOf('class="', at)) {
    const start = at + 7;
    const end = html.indexOf('"', start);
    if (end === -1) break;
    // An attribute `class`, not the end of another's name (`data-class=`).
    if (/\s/.test(html[at - 1] ?? "")) {
      for (const name of html.slice(start, end).split(SPACE)) {
        if (name) mark(sheet, used, unescapeHtml(name));
      }
    }
    at = end + 1;
  }
  return used;
}

/** A stylesheet's cut, and the same in UTF-8 (sent as bytes: app/entry.server.tsx). */
type Cut = { text: string; bytes: Buffer };

/**
 * `css` (Tailwind's minified output) without the utilities the page does not use: those of `html`,
 * and of `parts`, HTML that recurs from page to page (read once each: the same strings).
 */
export function cssForPage(css: string, html: string, parts: readonly string[] = []): string {
  return pageCut(css, html, parts).text;
}

/** cssForPage() in UTF-8, encoded once per cut. */
export function cssBytesForPage(css: string, html: string, parts: readonly string[] = []): Buffer {
  return pageCut(css, html, parts).bytes;
}

function pageCut(css: string, html: string, parts: readonly string[]): Cut {
  if (!parsed.has(css)) parsed.set(css, parse(css));
  const sheet = parsed.get(css);
  if (!sheet) return { text: css, bytes: Buffer.from(css) };
  const { partFlags, cutOf } = memosOf(sheet);
  const used = usedClasses(sheet, html);
  for (const name of SCRIPT_CLASSES) mark(sheet, used, name);
  for (const part of parts) {
    const flags = partFlags(part);
    for (let i = 0; i < flags.length; i++) used[i] |= flags[i];
  }
  return cutOf(used.join(""));
}

/**
 * Per sheet: the flags of parts that recur from page to page (kept HTML), by their HTML, and the
 * cut of each set of flags (one character per deciding class, "1" when used).
 */
const memos = new WeakMap<
  Parsed,
  { partFlags: Memo<[string], Uint8Array>; cutOf: Memo<[string], Cut> }
>();

function memosOf(sheet: Parsed) {
  let found = memos.get(sheet);
  if (!found) {
    found = {
      partFlags: memo((part: string) => usedClasses(sheet, part), { max: 2000 }),
      cutOf: memo((flags: string) => cutSheet(sheet, flags), { max: 200 }),
    };
    memos.set(sheet, found);
  }
  return found;
}

function cutSheet(sheet: Parsed, flags: string): Cut {
  const kept = (r: Rule): string => {
    if ("text" in r) return r.classes.some((index) => flags[index] === "1") ? r.text : "";
    const inner = r.rules.map(kept).join("");
    return inner ? `${r.open}${inner}}` : "";
  };
  const text = withoutUnreadTheme(
    withoutUnreadVariables(
      `${sheet.before}@layer utilities{${sheet.rules.map(kept).join("")}}${sheet.after}`,
    ),
  );
  return { text, bytes: Buffer.from(text) };
}

const PROPERTY_RULE = /@property (--tw-[\w-]+)\{[^}]*\}/g;
const DEFAULT = /(--tw-[\w-]+):[^;}]*;?/g;

/**
 * `css` without the `@property` rules and properties-layer defaults of Tailwind variables that no
 * kept rule reads: a utility's variables are declared whether or not the page uses it (about 8 KB).
 * Neither of them reads a variable itself, so the variables read are those of the rest.
 */
function withoutUnreadVariables(css: string): string {
  const read = new Set(Array.from(css.matchAll(/var\((--tw-[\w-]+)/g), (m) => m[1]));
  const defaults = css.indexOf("@layer properties{");
  let text = css.replace(PROPERTY_RULE, (rule, name: string) => (read.has(name) ? rule : ""));
  if (defaults !== -1) {
    const start = text.indexOf("{--tw-", defaults) + 1;
    const end = text.indexOf("}", start);
    if (start > 0 && end !== -1) {
      const kept = text
        .slice(start, end)
        .replace(DEFAULT, (decl, name: string) =>
          read.has(name) ? (decl.endsWith(";") ? decl : `${decl};`) : "",
        );
      text = text.slice(0, start) + kept.replace(/;$/, "") + text.slice(end);
    }
  }
  return text;
}

const THEME_BLOCK = "@layer theme{:root,:host{";
const READ = /var\((--[\w-]+)/g;

/**
 * `css` without the theme layer's variables that nothing kept reads: Tailwind declares those its
 * whole stylesheet reads, a page's cut reads fewer. A variable that a kept one reads stays too.
 */
function withoutUnreadTheme(css: string): string {
  const at = css.indexOf(THEME_BLOCK);
  if (at === -1) return css;
  const start = at + THEME_BLOCK.length;
  const end = css.indexOf("}", start);
  const declarations = css
    .slice(start, end)
    .split(";")
    .filter(Boolean)
    .map((declaration) => {
      const colon = declaration.indexOf(":");
      return [declaration.slice(0, colon), declaration.slice(colon + 1)] as const;
    });
  const read = new Set(Array.from((css.slice(0, at) + css.slice(end)).matchAll(READ), (m) => m[1]));
  for (let grew = true; grew;) {
    grew = false;
    for (const [name, value] of declarations) {
      if (!read.has(name)) continue;
      for (const [, used] of value.matchAll(READ)) {
        if (read.has(used)) continue;
        read.add(used);
        grew = true;
      }
    }
  }
  const kept = declarations.filter(([name]) => read.has(name)).map(([n, v]) => `${n}:${v}`);
  return css.slice(0, start) + kept.join(";") + css.slice(end);
}
