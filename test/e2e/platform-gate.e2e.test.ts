/**
 * The platform gate at boot: the installed Nest and TypeORM are read from their own manifests and checked against the
 * ranges Svc supports; an unsupported or unreadable package stops the app with one error naming them all.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { readInstalledVersion, requireSupportedPlatform, type PackageRequire } from '@svc/core/spi';
import { typeorm } from '@svc/typeorm';
import {
  EXCEPTION_FILTERS_METADATA as NEST_FILTERS,
  FILTER_CATCH_EXCEPTIONS as NEST_CATCH,
  GUARDS_METADATA as NEST_GUARDS,
  PATH_METADATA as NEST_PATH,
} from '@nestjs/common/constants';
import {
  CONTROLLER_PATH_METADATA,
  EXCEPTION_FILTERS_METADATA,
  FILTER_CATCH_EXCEPTIONS,
  GUARDS_METADATA,
  ROUTE_PATH_METADATA,
} from '../../packages/nestjs/src/nest-metadata-keys';
import { nestPlatform, NEST_RANGE } from '../../packages/nestjs/src/nest-platform';
import { typeormPlatform, TYPEORM_RANGE } from '../../packages/typeorm/src/typeorm-platform';
import { BOOKSTORE_ENTITIES, Book } from '../fixtures/bookstore-entities';
import { bootstrapFailure, createTestApp, svcController } from '../support/create-test-app';

/** The version in the manifest beside the file a package resolves to: found another way than the gate finds it. */
function resolvedVersion(name: string): string {
  let folder = dirname(realpathSync(require.resolve(name)));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
        name?: string;
        version: string;
      };
      if (manifest.name === name) return manifest.version;
    } catch {
      // no manifest here: go up
    }
    folder = dirname(folder);
  }
}

/** A node_modules folder on disk holding the given packages at the given versions, and Node's lookup above it. */
function installedIn(root: string, versions: Record<string, string | null>): PackageRequire {
  for (const [name, version] of Object.entries(versions)) {
    const folder = join(root, 'node_modules', name);
    mkdirSync(folder, { recursive: true });
    const manifest = version === null ? { name } : { name, version, exports: { '.': './index.js' } };
    writeFileSync(join(folder, 'package.json'), JSON.stringify(manifest));
  }
  // Node's lookup from that folder; manifests are read from disk, since jest's own `require` maps an absolute
  // `/node_modules/...` path to the project's node_modules, which Node never does.
  const { resolve } = createRequire(join(root, 'app.js'));
  const load = (path: string): unknown => {
    if (!existsSync(path)) throw Object.assign(new Error(`Cannot find module '${path}'`), { code: 'MODULE_NOT_FOUND' });
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  };
  return Object.assign(load, { resolve });
}

/** Boots an app whose TypeORM is the one `load` finds, and answers the boot error it stops with. */
function bootWithTypeOrmFrom(load: PackageRequire) {
  return bootstrapFailure({
    db: { name: 'sqlite' },
    suite: 'platform_gate',
    entities: BOOKSTORE_ENTITIES,
    controllers: [svcController('books', Book)],
    svc: { infrastructure: { ...typeorm(), platform: [typeormPlatform(load)] } },
  });
}

describe('the platform gate', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'svc-platform-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  describe('on the installed packages', () => {
    it('reads the versions Node resolves, though TypeORM exports no package.json', () => {
      expect(() => require.resolve('typeorm/package.json')).toThrow();
      expect(typeormPlatform().installed).toEqual({ version: resolvedVersion('typeorm') });
      expect(nestPlatform().map((pkg) => pkg.installed)).toEqual([
        { version: resolvedVersion('@nestjs/common') },
        { version: resolvedVersion('@nestjs/core') },
      ]);
    });

    it('accepts them, against the same ranges the packages ask for as peers', () => {
      expect(() => requireSupportedPlatform([...nestPlatform(), typeormPlatform()])).not.toThrow();
      const peers = (folder: string) =>
        (
          JSON.parse(readFileSync(join(__dirname, '../../packages', folder, 'package.json'), 'utf8')) as {
            peerDependencies: Record<string, string>;
          }
        ).peerDependencies;
      expect(NEST_RANGE).toBe(peers('nestjs')['@nestjs/core']);
      expect(NEST_RANGE).toBe(peers('nestjs')['@nestjs/common']);
      expect(TYPEORM_RANGE).toBe(peers('typeorm')['typeorm']);
    });

    it("names Nest's metadata keys as the installed Nest does (Svc imports no Nest internals)", () => {
      expect(GUARDS_METADATA).toBe(NEST_GUARDS);
      expect(CONTROLLER_PATH_METADATA).toBe(NEST_PATH);
      expect(ROUTE_PATH_METADATA).toBe(NEST_PATH);
      expect(EXCEPTION_FILTERS_METADATA).toBe(NEST_FILTERS);
      expect(FILTER_CATCH_EXCEPTIONS).toBe(NEST_CATCH);
    });

    it('boots an app on them', async () => {
      const app = await createTestApp({
        db: { name: 'sqlite' },
        suite: 'platform_gate',
        entities: BOOKSTORE_ENTITIES,
        controllers: [svcController('books', Book)],
      });
      await app.close();
    });
  });

  describe('when a package is unsupported or unreadable', () => {
    it('refuses an unsupported Nest, naming both packages, the range and the command', () => {
      const lookup = installedIn(root, { '@nestjs/common': '10.4.15', '@nestjs/core': '10.4.15' });
      expect(() => requireSupportedPlatform(nestPlatform(lookup))).toThrow(
        /@nestjs\/common: 10\.4\.15 is installed; Svc supports \^11\.1\.0 \|\| \^12\. @nestjs\/core: 10\.4\.15 is installed.*npm install @nestjs\/common@\^12 @nestjs\/core@\^12/,
      );
    });

    it('refuses Nest and TypeORM together in one error', () => {
      const lookup = installedIn(root, { '@nestjs/common': '13.0.0', '@nestjs/core': '13.0.0', typeorm: '0.2.45' });
      expect(() => requireSupportedPlatform([...nestPlatform(lookup), typeormPlatform(lookup)])).toThrow(
        /these 3 packages.*@nestjs\/core: 13\.0\.0 is installed.*typeorm: 0\.2\.45 is installed; Svc supports \^0\.3\.27 \|\| \^1\..*npm install @nestjs\/common@\^12 @nestjs\/core@\^12 typeorm@\^1/,
      );
    });

    it('stops the app at boot on an unsupported TypeORM', async () => {
      const lookup = installedIn(root, { typeorm: '0.2.45' });
      const error = await bootWithTypeOrmFrom(lookup);
      expect(error.code).toBe('SVC_CONFIG_INVALID');
      expect(error.message).toContain('typeorm: 0.2.45 is installed; Svc supports ^0.3.27 || ^1.');
      expect(error.message).not.toContain('@nestjs');
    });

    it('stops the app at boot when a version cannot be read, saying why', async () => {
      const versionless = installedIn(root, { typeorm: null });
      expect(readInstalledVersion('typeorm', versionless)).toEqual({ unreadable: 'its package.json names no version' });
      const nowhere = installedIn(mkdtempSync(join(tmpdir(), 'svc-platform-none-')), {});
      for (const [load, reason] of [
        [versionless, 'its package.json names no version'],
        [nowhere, 'Node finds no installed copy of it from Svc'],
      ] as const) {
        const error = await bootWithTypeOrmFrom(load);
        expect(error.message).toContain(`typeorm: its version cannot be read: ${reason}; Svc supports ^0.3.27 || ^1.`);
      }
    });
  });
});
