// Markdown for every mode's report: tables, sizes, and the header that says where it ran.
import { execFileSync } from "node:child_process";
import os from "node:os";

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** A markdown table: headers separated by "|", each row an array of cells. */
export function table(headers: string, rows: unknown[][]): string {
  const line = (cells: unknown[]) => `| ${cells.map((c) => c ?? "").join(" | ")} |`;
  const heads = headers.split("|");
  return [line(heads), line(heads.map(() => "---")), ...rows.map(line)].join("\n");
}

function chromium() {
  try {
    const chrome = process.env.CHROME_PATH ?? "/usr/bin/chromium";
    return execFileSync(chrome, ["--version"], { stdio: "pipe" }).toString().trim();
  } catch {
    return "no Chromium";
  }
}

export function header(title: string, run: string): string {
  const cpus = os.cpus();
  const load = os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
  return (
    `# ${title} — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC\n\n${run} ` +
    `Machine: ${cpus.length} × ${cpus[0]?.model ?? "?"}, ${Math.round(os.totalmem() / 1024 ** 3)} GB, Node ${process.version}, ${chromium()}; ` +
    `load average at the end ${load} (the machine is shared: compare ratios within one run).\n`
  );
}
