// What every bench mode writes: a timed line per step, and its report in bench/results/.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { header } from "./markdown";
import * as tools from "./tools";

const started = Date.now();

/** A line of progress, with the seconds since the bench started. */
export const step = (message: string) =>
  console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${message}`);

/** Seconds since the bench started. */
export const elapsedSeconds = () => Math.round((Date.now() - started) / 1000);

/** Writes bench/results/<name>.md (and .json) and prints the markdown. */
export function write(name: string, title: string, run: string, markdown: string, json: object) {
  const commit = tools.gitCommit();
  const text = `${header(title, `${run} Commit ${commit}.`)}\n${markdown}`;
  writeFileSync(path.join(tools.RESULTS, `${name}.md`), text);
  const stamped = { date: new Date().toISOString(), commit, ...json };
  writeFileSync(path.join(tools.RESULTS, `${name}.json`), `${JSON.stringify(stamped, null, 2)}\n`);
  console.log(`\n${text}`);
  step(`written bench/results/${name}.md and ${name}.json`);
}
