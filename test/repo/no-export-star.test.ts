/** Every public export is named: no `export *` anywhere in a package's sources, so each index lists its API. */
import { join } from 'node:path';
import { filesUnder, fromRoot, packageDirs, readText } from './repo-files';

const EXPORT_STAR = /^\s*export\s+(?:type\s+)?\*/m;

describe('package sources', () => {
  const files = packageDirs().flatMap((dir) => filesUnder(join(dir, 'src'), '.ts'));

  it('are found', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it('never re-export with export *', () => {
    const offenders = files
      .filter((file) => EXPORT_STAR.test(readText(file)))
      .map((file) => `${fromRoot(file)}: name each export instead of "export *" (see docs/adr/0001).`);
    expect(offenders).toEqual([]);
  });
});
