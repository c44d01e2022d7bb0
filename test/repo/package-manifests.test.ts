/**
 * Every package is publishable as it stands: its manifest says what a registry and a consumer need (entry points,
 * files, license, repository, engines, a prepack build, every package its code imports), and its README works off
 * GitHub. `.ci/consumer-check.mjs` proves the same by installing them from a local registry into fresh apps.
 */
import { builtinModules } from 'node:module';
import { basename, join } from 'node:path';
import { exists, filesUnder, fromRoot, packageDirs, readText, REPO_ROOT } from './repo-files';

/** The repository every manifest and README points at. */
const REPOSITORY_URL = 'git+https://github.com/svc-dev/svc.git';
const DOCS_URL = 'https://github.com/svc-dev/svc/blob/main/';

/**
 * The newest platform line's overrides (`platforms/newest/pnpm-workspace.yaml`): each peer moved to its newest
 * supported version, as `^X.Y.Z`.
 */
function newestLineOverrides(): Record<string, string> {
  const yaml = readText(join(REPO_ROOT, 'platforms/newest/pnpm-workspace.yaml'));
  const block = /^overrides:\n((?: {2}.*\n)+)/m.exec(yaml)?.[1] ?? '';
  return Object.fromEntries([...block.matchAll(/^ {2}'?([^':]+)'?: (\S+)$/gm)].map((match) => [match[1]!, match[2]!]));
}

/** The line of a `^X.Y.Z` range as a caret on its leading non-zero part: `^12` of `^12.5.1`, `^0.15` of `^0.15.1`. */
function lineOf(range: string): string {
  const [major, minor] = range.replace(/^\^/, '').split('.');
  return major === '0' ? `^0.${minor}` : `^${major}`;
}

interface Manifest {
  name: string;
  license?: string;
  main?: string;
  types?: string;
  exports?: Record<string, unknown>;
  files?: string[];
  engines?: Record<string, string>;
  repository?: { type?: string; url?: string; directory?: string };
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

interface Import {
  specifier: string;
  typeOnly: boolean;
  file: string;
}

function readManifest(dir: string): Manifest {
  return JSON.parse(readText(join(dir, 'package.json'))) as Manifest;
}

/** The package a bare specifier names: `@scope/name` or `name`, without a subpath. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

const IMPORT_PATTERNS: { pattern: RegExp; typeOnly: (match: RegExpMatchArray) => boolean }[] = [
  // `import ... from 'x'`, `export ... from 'x'`, `import type ... from 'x'` (sources and .d.ts files).
  { pattern: /^\s*(import|export)(\s+type)?\b[^;]*?\bfrom\s+'([^']+)'/gm, typeOnly: (m) => m[2] !== undefined },
  // `import 'x'` for its side effects.
  { pattern: /^\s*import\s+'()()([^']+)'/gm, typeOnly: () => false },
  // `require("x")` in emitted JavaScript.
  { pattern: /\brequire\((["'])()([^"']+)\1\)/g, typeOnly: () => false },
];

/** Every bare (non-relative, non-builtin) import of a package's sources and, once built, of its dist. */
function importsOf(dir: string): Import[] {
  const files = [
    ...filesUnder(join(dir, 'src'), '.ts'),
    ...filesUnder(join(dir, 'dist'), '.js'),
    ...filesUnder(join(dir, 'dist'), '.d.ts'),
  ];
  const builtins = new Set(builtinModules);
  return files.flatMap((file) => {
    const text = readText(file);
    return IMPORT_PATTERNS.flatMap(({ pattern, typeOnly }) =>
      [...text.matchAll(pattern)]
        .map((match) => ({ specifier: match[3]!, typeOnly: typeOnly(match), file: fromRoot(file) }))
        .filter(({ specifier }) => !specifier.startsWith('.') && !specifier.startsWith('node:'))
        .filter(({ specifier }) => !builtins.has(packageOf(specifier))),
    );
  });
}

/** The commands of a README's `sh` blocks, with backslash-continued lines joined. */
function shellCommands(readme: string): string[] {
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
  return blocks.flatMap((block) =>
    block
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .map((line) => line.trim()),
  );
}

/** Link targets in Markdown: `[text](target)`, `[label]: target` and HTML `href`/`src`. */
function linkTargets(markdown: string): string[] {
  const inline = [...markdown.matchAll(/\]\(\s*<?([^)\s>]+)/g)].map((match) => match[1]!);
  const reference = [...markdown.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(\s|$)/gm)].map((match) => match[1]!);
  const html = [...markdown.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((match) => match[1]!);
  return [...inline, ...reference, ...html];
}

describe('published packages', () => {
  const root = readManifest(REPO_ROOT);
  const dirs = packageDirs();

  it('are found', () => {
    expect(dirs.length).toBeGreaterThan(0);
  });

  for (const dir of dirs) {
    const name = basename(dir);
    const manifest = readManifest(dir);
    const peers = manifest.peerDependencies ?? {};
    const optional = new Set(
      Object.entries(manifest.peerDependenciesMeta ?? {})
        .filter(([, meta]) => meta.optional === true)
        .map(([peer]) => peer),
    );

    describe(`packages/${name}`, () => {
      it('points main, types and the "." export at dist, types first', () => {
        expect(manifest.main).toBe('dist/index.js');
        expect(manifest.types).toBe('dist/index.d.ts');
        const entry = manifest.exports?.['.'];
        expect(entry).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
        expect(Object.keys(entry as object)[0]).toBe('types');
      });

      it('publishes dist, README.md and LICENSE', () => {
        expect([...(manifest.files ?? [])].sort()).toEqual(['LICENSE', 'README.md', 'dist']);
        expect(exists(join(dir, 'README.md'))).toBe(true);
      });

      it('builds itself before it is packed, from a fresh clone too', () => {
        expect(manifest.scripts?.['prepack']).toBe('tsc -b');
        expect(exists(join(dir, 'tsconfig.json'))).toBe(true);
      });

      it('is MIT licensed, with the license text in the package', () => {
        expect(manifest.license).toBe('MIT');
        const license = exists(join(dir, 'LICENSE')) ? readText(join(dir, 'LICENSE')) : '';
        expect(license).toMatch(/^MIT License\n\nCopyright \(c\) 2026 The Svc authors\n/);
        expect(license).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
      });

      it('names the repository and its folder in it', () => {
        expect(manifest.repository).toEqual({ type: 'git', url: REPOSITORY_URL, directory: `packages/${name}` });
      });

      it('requires the Node.js version the workspace requires', () => {
        expect(manifest.engines).toEqual({ node: root.engines!['node'] });
      });

      it('depends on sibling packages with a workspace caret range (pnpm rewrites it when packing)', () => {
        const siblings = Object.entries(manifest.dependencies ?? {}).filter(([dep]) => dep.startsWith('@svc/'));
        for (const [dep, range] of siblings) expect(`${dep}@${range}`).toBe(`${dep}@workspace:^`);
      });

      it('declares every package its sources and dist import, as a dependency or a peer', () => {
        const undeclared = importsOf(dir).filter(({ specifier, typeOnly }) => {
          const pkg = packageOf(specifier);
          if (manifest.dependencies?.[pkg] !== undefined) return false;
          if (peers[pkg] !== undefined && (typeOnly || !optional.has(pkg))) return false;
          // A type-only import may be served by DefinitelyTyped's package.
          return !(typeOnly && peers[`@types/${pkg}`] !== undefined);
        });
        expect(undeclared.map(({ specifier, file }) => `${file} imports '${specifier}'`)).toEqual([]);
      });

      it('declares no peer it does not use (optional ones are marked in peerDependenciesMeta)', () => {
        const used = new Set(importsOf(dir).flatMap(({ specifier }) => [packageOf(specifier)]));
        // Nest's own required peers: every Nest app loads them, so a Nest binding names them too.
        const nestPeers = used.has('@nestjs/common') ? ['reflect-metadata', 'rxjs'] : [];
        const unused = Object.keys(peers).filter(
          (peer) => !used.has(peer) && !used.has(peer.replace(/^@types\//, '')) && !nestPeers.includes(peer),
        );
        expect(unused).toEqual([]);
        for (const peer of Object.keys(manifest.peerDependenciesMeta ?? {})) expect(Object.keys(peers)).toContain(peer);
      });

      it('asks for each peer in the ranges of both platform lines the workspace tests', () => {
        const newest = newestLineOverrides();
        for (const [peer, range] of Object.entries(peers)) {
          // A sibling package is asked for at the workspace's own version.
          if (range.startsWith('workspace:')) continue;
          const oldest = root.devDependencies?.[peer];
          const expected = newest[peer] === undefined ? oldest : `${oldest} || ${lineOf(newest[peer])}`;
          expect(`${peer}@${range}`).toBe(`${peer}@${expected}`);
        }
      });

      describe('README.md', () => {
        const readme = exists(join(dir, 'README.md')) ? readText(join(dir, 'README.md')) : '';

        it('links only to absolute URLs or anchors (it is read on npm, away from the repository)', () => {
          const relative = linkTargets(readme).filter((target) => !/^(https?:\/\/|mailto:|#)/.test(target));
          expect(relative).toEqual([]);
        });

        it('links to the documentation on GitHub', () => {
          expect(readme).toContain(DOCS_URL);
        });

        it('has an install line that names the package and each of its required peers', () => {
          const required = Object.keys(peers).filter((peer) => !optional.has(peer));
          const installs = shellCommands(readme).filter((line) => line.startsWith('pnpm add '));
          const line = installs.find((command) => command.split(/\s+/).includes(manifest.name)) ?? '';
          expect(line).not.toBe('');
          const words = line.split(/\s+/);
          expect(required.filter((peer) => !words.includes(peer))).toEqual([]);
        });
      });
    });
  }
});

describe('.ci/consumer-check.mjs', () => {
  const path = join(REPO_ROOT, '.ci', 'consumer-check.mjs');
  const script = readText(path);

  it("installs the README's Quick start as printed, read from the README itself", () => {
    expect(script).toContain("readFileSync(join(REPO_ROOT, 'README.md')");
    expect(script).toContain('start.installs[app.install]');
    expect(script).toContain('sh(start.registry');
  });

  it("builds each app with the Quick start's tsconfig.json, as printed", () => {
    expect(script).toContain("writeFileSync(join(dir, 'tsconfig.json'), start.tsconfig)");
  });

  it('runs in .ci/run after both platform lines are tested', () => {
    const lines = readText(join(REPO_ROOT, '.ci', 'run'))
      .split('\n')
      .map((line) => line.trim());
    const oldest = lines.indexOf('pnpm test');
    const newest = lines.indexOf('NODE_OPTIONS=--experimental-vm-modules pnpm test');
    const check = lines.indexOf('node .ci/consumer-check.mjs');
    expect(oldest).toBeGreaterThanOrEqual(0);
    expect(newest).toBeGreaterThan(oldest);
    expect(check).toBeGreaterThan(newest);
  });
});

describe("the README's Quick start", () => {
  const readme = readText(join(REPO_ROOT, 'README.md'));
  const section = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## Routes'));

  it('names the file of every source block, so the consumer check can write it', () => {
    const blocks = [...section.matchAll(/```ts\n([^\n]*)/g)].map((match) => match[1]);
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    for (const first of blocks) expect(first).toMatch(/^\/\/ src\/[\w.-]+\.ts$/);
  });

  it('installs with pnpm, with npm (better-sqlite3 13 under an override) and on the oldest line', () => {
    expect(section).toContain('pnpm add @svc/core @svc/nestjs @svc/typeorm');
    expect(section).toContain("npm pkg set 'overrides.typeorm.better-sqlite3=$better-sqlite3'");
    expect(section).toMatch(/npm install @svc\/core[^`]*better-sqlite3@13/);
    expect(section).toMatch(/@nestjs\/common@11[^`]*typeorm@0\.3[^`]*better-sqlite3@12/);
  });

  it('installs TypeScript, and lets npm add @nestjs/swagger beside TypeScript 7', () => {
    expect(section).toContain('pnpm add -D typescript @types/node');
    expect(section).toContain('npm install -D typescript @types/node');
    expect(section).toContain("npm pkg set 'overrides.@nestjs/swagger.typescript=$typescript'");
  });

  it("prints the tsconfig.json its files build with, naming Node's types and the decorator options", () => {
    const block = /```jsonc\n\/\/ tsconfig\.json\n([\s\S]*?)```/.exec(section)?.[1] ?? '{}';
    const { compilerOptions } = JSON.parse(block) as { compilerOptions?: Record<string, unknown> };
    expect(compilerOptions).toMatchObject({
      module: 'nodenext',
      types: ['node'],
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    });
  });

  it('names the driver of each database beside the install lines', () => {
    for (const driver of ['better-sqlite3', 'pg', 'mysql2']) expect(section).toContain(`\`${driver}\``);
  });
});
