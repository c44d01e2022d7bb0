/** Every workspace package has the same shape: one entry point, a README, an index of exports. */
import { basename, join } from 'node:path';
import { exists, packageDirs, readText } from './repo-files';

describe('workspace packages', () => {
  const dirs = packageDirs();

  it('are found', () => {
    expect(dirs.length).toBeGreaterThan(0);
  });

  for (const dir of dirs) {
    const name = basename(dir);

    describe(`packages/${name}`, () => {
      it('exposes only its entry points in package.json exports (no deep imports)', () => {
        const manifest = JSON.parse(readText(join(dir, 'package.json'))) as { exports?: unknown };
        expect(manifest.exports).toBeDefined();
        const keys =
          typeof manifest.exports === 'object' && manifest.exports !== null ? Object.keys(manifest.exports) : [];
        // Core has a second entry for what adapters and surfaces build on (`@svc/core/spi`), typed for every resolver.
        expect(keys).toEqual(name === 'core' ? ['.', './spi'] : ['.']);
        if (name === 'core') {
          expect(exists(join(dir, 'src', 'spi.ts'))).toBe(true);
          expect((manifest as { typesVersions?: unknown }).typesVersions).toEqual({ '*': { spi: ['dist/spi.d.ts'] } });
        }
      });

      it('has a README.md', () => {
        expect(exists(join(dir, 'README.md'))).toBe(true);
      });

      it('has src/index.ts naming its public exports', () => {
        expect(exists(join(dir, 'src', 'index.ts'))).toBe(true);
      });
    });
  }
});
