import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The system test files that take longest (one file's tests run one after another in one worker),
 * longest first, as measured: `embedded-restart` (SIGKILLs during ten fresh starts), `backup`,
 * `mail`, `durability`, `crash-restart`, `shutdown`, `webhooks`, `postgres-restart`.
 */
const LONGEST = [
  "embedded-restart",
  "backup",
  "mail",
  "durability",
  "crash-restart",
  "shutdown",
  "webhooks",
  "postgres-restart",
].map((name) => `tests/system/${name}.test.ts`);

/**
 * Vitest runs the files it has durations for longest first, and the others largest first. On a
 * fresh clone (CI) it has none, and the largest files are not the longest: the long ones, started
 * last, leave one worker busy long after the others. The files known to be long start first, in this order
 * on every machine (a skipped or failed run's durations in Vitest's cache cannot reorder them);
 * the others follow in Vitest's order.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = LONGEST.indexOf(relative(this.ctx.config.root, file.moduleId));
      return index === -1 ? LONGEST.length : index;
    };
    return sorted
      .map((file, position) => ({ file, position }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.position - b.position)
      .map(({ file }) => file);
  }
}
