/** CI runs what the README tells a newcomer to run, so the first commands anyone types are the ones CI proves. */
import { join } from 'node:path';
import { statSync } from 'node:fs';
import { readText, REPO_ROOT } from './repo-files';

const README_TEST = 'pnpm install && pnpm test';
const README_EXAMPLE = 'pnpm install && pnpm example';

/** The commands .ci/run executes: its lines without comments and blank lines. */
function commandLines(script: string): string[] {
  return script
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('#'));
}

describe('README.md and .ci/run', () => {
  const readme = readText(join(REPO_ROOT, 'README.md'));
  const ciPath = join(REPO_ROOT, '.ci', 'run');
  const ci = readText(ciPath);
  const scripts = (JSON.parse(readText(join(REPO_ROOT, 'package.json'))) as { scripts: Record<string, string> })
    .scripts;

  it(`shows the example command "${README_EXAMPLE}"`, () => {
    expect(readme).toContain(README_EXAMPLE);
    expect(scripts['example']).toBeDefined();
  });

  it(`shows the test command "${README_TEST}"`, () => {
    expect(readme).toContain(README_TEST);
    expect(scripts['test']).toBeDefined();
  });

  it("runs the README's test command in .ci/run", () => {
    const testCommand = README_TEST.split('&&').pop()!.trim();
    expect(commandLines(ci)).toContain(testCommand);
  });

  it('installs from the lockfile and stops at the first failing step', () => {
    expect(commandLines(ci)).toContain('pnpm install --frozen-lockfile');
    expect(ci).toMatch(/^set -euo pipefail$/m);
  });

  it('is executable', () => {
    expect(statSync(ciPath).mode & 0o111).not.toBe(0);
  });
});
