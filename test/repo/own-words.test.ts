/**
 * The repo speaks in its own words: users have no copy of the design documents the team writes against, so no source,
 * test or page points at them; each states the rule itself.
 */
import { join, relative, sep } from 'node:path';
import { filesUnder, readText, REPO_ROOT } from './repo-files';

const ROOTS = ['packages', 'test', 'examples', 'bench', 'docs'];
const REFERENCE = /\bSPEC\.md\b|\bCONTRACT(\.md)?\b/;

function sources(): string[] {
  const files = ROOTS.flatMap((root) => [
    ...filesUnder(join(REPO_ROOT, root), '.ts'),
    ...filesUnder(join(REPO_ROOT, root), '.md'),
  ]);
  return [join(REPO_ROOT, 'README.md'), ...files].filter(
    (file) => !file.split(sep).some((part) => part === 'node_modules' || part === 'dist'),
  );
}

describe('the repo’s own words', () => {
  it('never points readers at the internal design documents', () => {
    const offenders = sources()
      .filter((file) => file !== __filename)
      .flatMap((file) =>
        readText(file)
          .split('\n')
          .flatMap((line, index) => (REFERENCE.test(line) ? [`${relative(REPO_ROOT, file)}:${index + 1}`] : [])),
      );
    expect(offenders).toEqual([]);
  });
});
