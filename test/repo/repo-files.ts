/** File-system helpers shared by the repository wiring checks. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..');

/** The workspace packages: every folder under packages/ that has a package.json. */
export function packageDirs(): string[] {
  const root = join(REPO_ROOT, 'packages');
  return readdirSync(root)
    .map((name) => join(root, name))
    .filter((dir) => statSync(dir).isDirectory() && exists(join(dir, 'package.json')));
}

/** Every file under `dir` whose name ends with `suffix`, recursively; an absent folder has none. */
export function filesUnder(dir: string, suffix: string): string[] {
  if (!exists(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path, suffix));
    else if (entry.name.endsWith(suffix)) out.push(path);
  }
  return out.sort();
}

export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}

export function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A path relative to the repository root, for failure messages. */
export function fromRoot(path: string): string {
  return relative(REPO_ROOT, path);
}
