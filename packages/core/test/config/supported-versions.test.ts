import { ConfigurationException, createSvc } from '../../src';
import { satisfiesRange } from '../../src/errors/supported-versions';
import {
  readInstalledVersion,
  requireSupportedPlatform,
  type PackageRequire,
  type PlatformPackage,
} from '../../src/spi';

/**
 * A `require` over an in-memory file tree laid out as node_modules folders (the bindings pass Node's own): it loads
 * JSON files, resolves the entries given, and searches `/app/node_modules` then `/node_modules`.
 */
function requireOver(files: Record<string, string>, entries: Record<string, string> = {}): PackageRequire {
  const load = (id: string): unknown => {
    const text = files[id];
    if (text === undefined) throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
    return JSON.parse(text) as unknown;
  };
  const resolve = (name: string): string => {
    const entry = entries[name];
    if (entry === undefined)
      throw Object.assign(new Error(`Cannot find module '${name}'`), { code: 'MODULE_NOT_FOUND' });
    return entry;
  };
  resolve.paths = (): string[] => ['/app/node_modules', '/node_modules'];
  return Object.assign(load, { resolve });
}

const pkg = (name: string, range: string, version: string): PlatformPackage => ({
  name,
  range,
  installed: { version },
});

describe('satisfiesRange', () => {
  it.each([
    ['11.1.6', '^11 || ^12'],
    ['12.0.0', '^11 || ^12'],
    ['12.5.1', '^11 || ^12'],
    ['0.3.27', '^0.3.27 || ^1'],
    ['0.3.31', '^0.3.27 || ^1'],
    ['1.1.1', '^0.3.27 || ^1'],
    ['12.5.1+build.7', '^12'],
    ['0.15.1', '^0.14 || ^0.15'],
  ])('accepts %s in %s', (version, range) => {
    expect(satisfiesRange(version, range)).toBe(true);
  });

  it.each([
    ['10.4.15', '^11 || ^12'],
    ['13.0.0', '^11 || ^12'],
    ['0.3.26', '^0.3.27 || ^1'],
    ['0.30.0', '^0.3.27 || ^1'],
    ['0.4.0', '^0.3.27 || ^1'],
    ['2.0.0', '^0.3.27 || ^1'],
    ['not-a-version', '^11'],
    ['12.0.0-rc.1', '^11 || ^12'],
    ['0.3.28-dev.4f2a1c0', '^0.3.27 || ^1'],
    ['1.0.0-alpha', '^0.3.27 || ^1'],
  ])('refuses %s for %s', (version, range) => {
    expect(satisfiesRange(version, range)).toBe(false);
  });
});

describe('readInstalledVersion', () => {
  it("reads the manifest in the nearest node_modules folder, whatever the package's exports hide", () => {
    const files = {
      '/app/node_modules/typeorm/package.json': JSON.stringify({
        name: 'typeorm',
        version: '1.1.1',
        exports: { '.': './index.js' },
      }),
      '/node_modules/typeorm/package.json': JSON.stringify({ name: 'typeorm', version: '0.2.45' }),
    };
    expect(readInstalledVersion('typeorm', requireOver(files))).toEqual({ version: '1.1.1' });
  });

  it('walks up from the resolved entry when no node_modules folder holds the package', () => {
    const files = { '/store/nest-core/package.json': JSON.stringify({ name: '@nestjs/core', version: '12.5.1' }) };
    const lookup = requireOver(files, { '@nestjs/core': '/store/nest-core/dist/index.js' });
    expect(readInstalledVersion('@nestjs/core', lookup)).toEqual({ version: '12.5.1' });
  });

  it('says why when the package is missing, or its manifest names no version', () => {
    expect(readInstalledVersion('typeorm', requireOver({}))).toEqual({
      unreadable: 'Node finds no installed copy of it from Svc',
    });
    const versionless = { '/app/node_modules/typeorm/package.json': JSON.stringify({ name: 'typeorm' }) };
    expect(readInstalledVersion('typeorm', requireOver(versionless))).toEqual({
      unreadable: 'its package.json names no version',
    });
  });

  it('takes the nearest copy as the one Node loads: an alias or a broken manifest there is unreadable', () => {
    const outer = { '/node_modules/typeorm/package.json': JSON.stringify({ name: 'typeorm', version: '0.3.27' }) };
    const alias = {
      ...outer,
      '/app/node_modules/typeorm/package.json': JSON.stringify({ name: '@acme/typeorm-fork', version: '9.0.0' }),
    };
    expect(readInstalledVersion('typeorm', requireOver(alias))).toEqual({
      unreadable: '/app/node_modules/typeorm holds @acme/typeorm-fork',
    });
    const broken = { ...outer, '/app/node_modules/typeorm/package.json': '{ "name": "typeorm", ' };
    expect(readInstalledVersion('typeorm', requireOver(broken))).toEqual({
      unreadable: '/app/node_modules/typeorm/package.json is not valid JSON',
    });
  });

  it('skips manifests of other packages on the way up from the resolved entry', () => {
    const files = {
      '/lib/dist/package.json': JSON.stringify({ type: 'commonjs' }),
      '/package.json': JSON.stringify({ name: 'bundle', version: '1.0.0' }),
    };
    expect(readInstalledVersion('typeorm', requireOver(files, { typeorm: '/lib/dist/typeorm.js' }))).toEqual({
      unreadable: 'no package.json naming typeorm was found above /lib/dist/typeorm.js',
    });
  });
});

describe('requireSupportedPlatform', () => {
  const refusal = (packages: PlatformPackage[]): ConfigurationException => {
    try {
      requireSupportedPlatform(packages);
    } catch (error) {
      return error as ConfigurationException;
    }
    throw new Error('requireSupportedPlatform accepted the packages');
  };

  it('accepts supported versions', () => {
    expect(() =>
      requireSupportedPlatform([
        pkg('@nestjs/core', '^11 || ^12', '12.5.1'),
        pkg('typeorm', '^0.3.27 || ^1', '0.3.27'),
      ]),
    ).not.toThrow();
  });

  it('names every unsupported package in one error, with its version, the range and one install command', () => {
    const error = refusal([
      pkg('@nestjs/common', '^11 || ^12', '10.4.15'),
      pkg('@nestjs/core', '^11 || ^12', '10.4.15'),
      pkg('typeorm', '^0.3.27 || ^1', '0.2.45'),
    ]);
    expect(error).toBeInstanceOf(ConfigurationException);
    expect(error.code).toBe('SVC_CONFIG_INVALID');
    expect(error.message).toContain('these 3 packages');
    expect(error.message).toContain('@nestjs/common: 10.4.15 is installed; Svc supports ^11 || ^12.');
    expect(error.message).toContain('@nestjs/core: 10.4.15 is installed; Svc supports ^11 || ^12.');
    expect(error.message).toContain('typeorm: 0.2.45 is installed; Svc supports ^0.3.27 || ^1.');
    expect(error.message).toContain('npm install @nestjs/common@^12 @nestjs/core@^12 typeorm@^1');
    expect(error.message).toContain('pnpm add @nestjs/common@^12 @nestjs/core@^12 typeorm@^1');
  });

  it('fails closed on a version it cannot read, saying so', () => {
    const error = refusal([
      { name: 'typeorm', range: '^0.3.27 || ^1', installed: { unreadable: 'it is not installed' } },
    ]);
    expect(error.message).toContain('typeorm: its version cannot be read: it is not installed; Svc supports');
    expect(error.message).toContain('npm install typeorm@^1');
  });

  it('checks a package listed twice once', () => {
    const error = refusal([pkg('typeorm', '^1', '0.2.0'), pkg('typeorm', '^1', '0.2.0')]);
    expect(error.message).toContain('this package');
    expect(error.message.match(/typeorm: /g)).toHaveLength(1);
  });
});

describe('createSvc', () => {
  const infrastructure = (installed: PlatformPackage['installed']) => ({
    name: 'stub',
    platform: [{ name: 'typeorm', range: '^0.3.27 || ^1', installed }],
    createAdapter: () => {
      throw new Error('no adapter in this test');
    },
  });

  it('refuses to start on an infrastructure whose platform is unsupported, before any entity is served', () => {
    expect(() => createSvc({ infrastructure: infrastructure({ version: '0.2.45' }) })).toThrow(
      /platform: Svc does not run on this package as installed\. typeorm: 0\.2\.45 is installed/,
    );
    expect(() => createSvc({ infrastructure: infrastructure({ unreadable: 'it is not installed' }) })).toThrow(
      /typeorm: its version cannot be read: it is not installed/,
    );
  });

  it('starts on a supported one', () => {
    expect(() => createSvc({ infrastructure: infrastructure({ version: '1.1.1' }) })).not.toThrow();
  });
});
