// The name of a file someone sent us: kept short and harmless, and given back in a download's
// Content-Disposition in both forms browsers read (RFC 6266: an ASCII fallback, then RFC 5987).

export const FILE_NAME_MAX = 150;

/**
 * A sender's file name without its path, control or formatting characters (a right-to-left
 * override can make `fdp.exe` read `exe.pdf`), nor the characters Windows refuses; at most
 * FILE_NAME_MAX characters, the extension kept. `fallback` when nothing is left.
 */
export function safeFileName(name: string | null | undefined, fallback: string): string {
  const base = (name ?? "").split(/[/\\]/).pop() ?? "";
  const cleaned = base
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, "")
    .replace(/[<>:"|?*]/g, "_")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\.+/, "");
  const chars = Array.from(cleaned);
  if (chars.length === 0) return fallback;
  if (chars.length <= FILE_NAME_MAX) return cleaned;
  const dot = cleaned.lastIndexOf(".");
  const extension = dot > 0 ? Array.from(cleaned.slice(dot)) : [];
  const kept = extension.length > 0 && extension.length <= 10 ? extension : [];
  return [...chars.slice(0, FILE_NAME_MAX - kept.length), ...kept].join("");
}

/** The name in ASCII for old clients: accents folded, anything else `_`. */
function asciiFallback(name: string): string {
  return name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[^\x20-\x7e]|["\\%]/g, "_");
}

/** `attachment; filename="…"; filename*=UTF-8''…` for a download of `name`. */
export function attachmentDisposition(name: string): string {
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${asciiFallback(name)}"; filename*=UTF-8''${encoded}`;
}

// A file's size as the team reads it: `512 o`, `12,3 ko`, `4,2 Mo` (binary multiples, as the
// file managers they use show them).

const UNITS = ["byte", "kilobyte", "megabyte", "gigabyte"] as const;

const formatters = UNITS.map(
  (unit) =>
    new Intl.NumberFormat("fr-FR", {
      style: "unit",
      unit,
      unitDisplay: "short",
      maximumFractionDigits: unit === "byte" ? 0 : 1,
    }),
);

export function formatFileSize(bytes: number): string {
  let value = Math.max(0, bytes);
  let index = 0;
  while (value >= 1024 && index < UNITS.length - 1) {
    value /= 1024;
    index++;
  }
  return formatters[index].format(value);
}
