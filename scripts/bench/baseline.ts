// Another commit's build for `compare`: a git worktree of it under the system's temporary folder,
// its packages (the repository's own when the lockfile is the same, else installed from npm's
// cache), built once and kept for the next run.
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, readFileSync, symlinkSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT } from "./tools";

const git = (args: string[], cwd = ROOT) =>
  execFileSync("git", args, { cwd, stdio: ["ignore", "pipe", "pipe"] })
    .toString()
    .trim();

const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, stdio: ["ignore", "pipe", "inherit"] });

/** The commit `ref` names, short, or an error saying what git said. */
export function commitOf(ref: string): string {
  return git(["rev-parse", "--short", `${ref}^{commit}`]);
}

/** The built server of `ref` in its own worktree: the folder to start it from, and its commit. */
export function baselineBuild(ref: string, step: (message: string) => void) {
  const commit = commitOf(ref);
  const root = path.join(tmpdir(), `serveurpro-bench-${commit}`);
  if (!existsSync(path.join(root, "package.json"))) {
    step(`git worktree add ${root} ${commit}`);
    git(["worktree", "prune"]);
    git(["worktree", "add", "--detach", root, commit]);
  }
  const modules = path.join(root, "node_modules");
  const lock = (dir: string) => readFileSync(path.join(dir, "package-lock.json"), "utf8");
  // A link made when the lockfiles were the same is dropped once this tree's packages change.
  if (existsSync(modules) && lstatSync(modules).isSymbolicLink() && lock(root) !== lock(ROOT)) {
    unlinkSync(modules);
  }
  if (!existsSync(modules)) {
    if (lock(root) === lock(ROOT)) {
      step(`${commit}: the same lockfile, node_modules linked`);
      symlinkSync(path.join(ROOT, "node_modules"), modules, "dir");
    } else {
      step(`${commit}: npm install --prefer-offline (another lockfile)`);
      run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], root);
    }
  }
  if (!existsSync(path.join(root, "build/server/main.js"))) {
    step(`${commit}: npm run build`);
    run("npm", ["run", "build"], root);
  }
  return { root, commit };
}
