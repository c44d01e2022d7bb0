/**
 * Import rules between the packages (ADR 0001), checked on the real sources rather than left to convention.
 * Each failure message cites the decision behind the rule: docs/adr/0001-pnpm-workspace-and-package-boundaries.md.
 */
import { dirname, join, relative, resolve, sep } from 'node:path';
import * as ts from 'typescript';
import { exists, filesUnder, fromRoot, readText, REPO_ROOT } from './repo-files';

const ADR = 'docs/adr/0001-pnpm-workspace-and-package-boundaries.md';

/** One module specifier a file refers to, and whether only types are taken from it (erased at compile time). */
export interface ImportRef {
  readonly specifier: string;
  readonly typeOnly: boolean;
}

/** Every module a TypeScript source refers to: imports, re-exports, `require()`, `import()` and `import x = require()`. */
export function collectImports(fileName: string, text: string): ImportRef[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const refs: ImportRef[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      refs.push({ specifier: node.moduleSpecifier.text, typeOnly: importIsTypeOnly(node.importClause) });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      const allTypes = named !== undefined && named.length > 0 && named.every((element) => element.isTypeOnly);
      refs.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly || allTypes });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expression = node.moduleReference.expression;
      if (ts.isStringLiteral(expression)) refs.push({ specifier: expression.text, typeOnly: node.isTypeOnly });
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal)) {
        refs.push({ specifier: argument.literal.text, typeOnly: true });
      }
    } else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const [first] = node.arguments;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      const isDynamicImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      if ((isRequire || isDynamicImport) && first && ts.isStringLiteralLike(first)) {
        refs.push({ specifier: first.text, typeOnly: false });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return refs;
}

function importIsTypeOnly(clause: ts.ImportClause | undefined): boolean {
  if (!clause) return false; // `import 'x'` runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0
    ? bindings.elements.every((element) => element.isTypeOnly)
    : false;
}

function isRelative(specifier: string): boolean {
  return specifier === '.' || specifier === '..' || specifier.startsWith('./') || specifier.startsWith('../');
}

/** True when `specifier` is the package `name` itself or one of its subpaths (`typeorm/metadata/...`). */
function isPackage(specifier: string, name: string): boolean {
  return specifier === name || specifier.startsWith(`${name}/`);
}

interface PackageRule {
  readonly folder: string;
  /** What the package may import besides its own files; the reason is quoted in the failure message. */
  readonly allows: (ref: ImportRef, file: string) => boolean;
  readonly allowed: string;
}

/** Core's two entries: what an app imports, and what adapters and surfaces build on. */
function isCore(specifier: string): boolean {
  return specifier === '@svc/core' || specifier === '@svc/core/spi';
}

const RULES: readonly PackageRule[] = [
  {
    folder: 'core',
    // The OpenTelemetry API is the one exception: an API only, with no dependencies, made to be a library's (0036).
    allows: ({ specifier }, file) =>
      specifier === '@opentelemetry/api' && file === 'packages/core/src/service/operation-span.ts',
    allowed:
      "only its own files, and '@opentelemetry/api' in service/operation-span.ts (no other package, no Node builtins)",
  },
  {
    folder: 'typeorm',
    allows: ({ specifier }) => isCore(specifier) || isPackage(specifier, 'typeorm'),
    allowed: "only its own files, '@svc/core' (and '@svc/core/spi') and 'typeorm'",
  },
  {
    folder: 'nestjs',
    allows: ({ specifier, typeOnly }) =>
      isCore(specifier) ||
      specifier === '@svc/graphql' ||
      specifier === '@svc/mcp' ||
      specifier === '@svc/sse' ||
      // The GraphQL endpoint names graphql's types (its peer, optional like @svc/graphql); nothing loads it at run time.
      (specifier === 'graphql' && typeOnly) ||
      // A Nest package's root only: its subpaths are internals (Nest 12 exports them from '<package>/internal').
      /^@nestjs\/[\w-]+$/.test(specifier) ||
      isPackage(specifier, 'rxjs') ||
      specifier === 'reflect-metadata' ||
      specifier === 'class-validator' ||
      specifier === 'class-transformer' ||
      // class-validator's metadata read as JSON Schema (its dependency, docs/adr/0033).
      specifier === 'class-validator-jsonschema' ||
      specifier.startsWith('node:'),
    allowed:
      "only its own files, '@svc/core' (and '@svc/core/spi'), the surface packages ('@svc/graphql', '@svc/mcp', '@svc/sse'), types from 'graphql', the root of each '@nestjs/*' package (no subpath: those are Nest's internals), 'rxjs', 'reflect-metadata', 'class-validator', 'class-transformer', 'class-validator-jsonschema' and Node builtins",
  },
  {
    folder: 'graphql',
    allows: ({ specifier }) =>
      isCore(specifier) ||
      specifier === 'graphql' ||
      isPackage(specifier, 'graphql-http') ||
      specifier.startsWith('node:'),
    allowed: "only its own files, '@svc/core' (and '@svc/core/spi'), 'graphql', 'graphql-http' and Node builtins",
  },
  {
    folder: 'mcp',
    allows: ({ specifier }) =>
      isCore(specifier) || specifier.startsWith('@modelcontextprotocol/') || specifier.startsWith('node:'),
    allowed:
      "only its own files, '@svc/core' (and '@svc/core/spi'), the MCP SDK ('@modelcontextprotocol/*') and Node builtins",
  },
  {
    folder: 'sse',
    allows: ({ specifier }) => isCore(specifier) || specifier.startsWith('node:'),
    allowed: "only its own files, '@svc/core' (and '@svc/core/spi') and Node builtins",
  },
  {
    folder: 'redis',
    allows: ({ specifier }) => isCore(specifier) || specifier === 'ioredis' || specifier.startsWith('node:'),
    allowed: "only its own files, '@svc/core' (and '@svc/core/spi'), 'ioredis' and Node builtins",
  },
];

/** Every rule broken by the .ts files of one package's src folder, as readable messages. */
function violations(rule: PackageRule): string[] {
  const src = join(REPO_ROOT, 'packages', rule.folder, 'src');
  const out: string[] = [];
  for (const file of filesUnder(src, '.ts')) {
    for (const ref of collectImports(file, readText(file))) {
      if (isRelative(ref.specifier)) {
        const target = resolve(dirname(file), ref.specifier);
        if (target !== src && !target.startsWith(src + sep)) {
          out.push(`${fromRoot(file)} imports '${ref.specifier}', outside packages/${rule.folder}/src (${ADR}).`);
        }
      } else if (!rule.allows(ref, fromRoot(file))) {
        const what = ref.typeOnly ? 'types from ' : '';
        const hint = ref.specifier.startsWith('node:')
          ? ' Use a global (for example crypto.randomUUID()) instead.'
          : '';
        out.push(
          `${fromRoot(file)} imports ${what}'${ref.specifier}'; @svc/${rule.folder} may import ${rule.allowed}.${hint} (${ADR})`,
        );
      }
    }
  }
  return out;
}

describe('collectImports', () => {
  const refs = collectImports(
    'sample.ts',
    [
      "import a from 'a';",
      "import type { B } from 'b';",
      "import { type C1, type C2 } from 'c';",
      "import { type D1, D2 } from 'd';",
      "import 'e';",
      "export { F } from 'f';",
      "export type { G } from 'g';",
      "export * from 'h';",
      "const i = require('i');",
      "const j = import('j');",
      "import k = require('k');",
      "let l: import('l').L;",
    ].join('\n'),
  );

  it('finds every kind of module reference', () => {
    expect(refs.map((ref) => ref.specifier).sort()).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
      'g',
      'h',
      'i',
      'j',
      'k',
      'l',
    ]);
  });

  it('tells type-only references from ones that load the module at run time', () => {
    const typeOnly = refs.filter((ref) => ref.typeOnly).map((ref) => ref.specifier);
    expect(typeOnly.sort()).toEqual(['b', 'c', 'g', 'l']);
  });
});

describe('import rules (docs/adr/0001)', () => {
  it('finds the sources of @svc/core', () => {
    expect(filesUnder(join(REPO_ROOT, 'packages', 'core', 'src'), '.ts').length).toBeGreaterThan(0);
  });

  for (const rule of RULES) {
    describe(`@svc/${rule.folder}`, () => {
      it(`imports ${rule.allowed}`, () => {
        expect(violations(rule)).toEqual([]);
      });
    });
  }

  describe('@svc/core package.json', () => {
    it('declares one peer dependency, the OpenTelemetry API, and nothing else of any kind', () => {
      const manifestPath = join(REPO_ROOT, 'packages', 'core', 'package.json');
      expect(exists(manifestPath)).toBe(true);
      const manifest = JSON.parse(readText(manifestPath)) as Record<string, Record<string, string> | undefined>;
      const declared = ['dependencies', 'peerDependencies', 'optionalDependencies'].flatMap((key) =>
        Object.keys(manifest[key] ?? {})
          .filter((name) => !(key === 'peerDependencies' && name === '@opentelemetry/api'))
          .map((name) => `packages/core/package.json declares ${key} ${name}; core depends on nothing else (${ADR}).`),
      );
      expect(declared).toEqual([]);
    });
  });
});

/**
 * The folders of @svc/core from the bottom up. A file imports its own folder and the folders below it, never one
 * above: contracts (errors, the persistence port and the filter AST, config and context types) sit at the bottom,
 * the bootstrap resolution of an entity (`entity/`) above everything it assembles, and the flows and the service on top.
 */
export const CORE_FOLDER_ORDER = [
  'errors',
  'persistence',
  'config',
  'schema',
  'pagination',
  'query',
  'cache',
  'realtime',
  'entity',
  'pipeline',
  'operations',
  'service',
] as const;

/** Mutual recursion kept on purpose: a relation path's subquery holds a filter, whose conditions may be relation paths. */
const DELIBERATE_CYCLES: readonly (readonly string[])[] = [
  ['packages/typeorm/src/filter-sql.ts', 'packages/typeorm/src/relation-filter-sql.ts'],
];

/** The relative imports of every .ts file under `src`, as repo-relative paths, type-only imports included. */
function importGraph(src: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of filesUnder(src, '.ts')) {
    const targets: string[] = [];
    for (const ref of collectImports(file, readText(file))) {
      if (!isRelative(ref.specifier)) continue;
      const base = resolve(dirname(file), ref.specifier);
      const target = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => exists(candidate));
      if (target) targets.push(fromRoot(target));
    }
    graph.set(fromRoot(file), targets);
  }
  return graph;
}

/** The groups of files that import each other in a circle (strongly connected components of more than one file). */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

describe('import cycles', () => {
  it('finds a cycle, type-only imports included', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  for (const rule of RULES) {
    it(`@svc/${rule.folder} has none but the deliberate ones`, () => {
      const cycles = importCycles(importGraph(join(REPO_ROOT, 'packages', rule.folder, 'src')));
      const deliberate = new Set(DELIBERATE_CYCLES.map((cycle) => [...cycle].sort().join(' ')));
      const found = cycles.filter((cycle) => !deliberate.has(cycle.join(' ')));
      expect(found.map((cycle) => `${cycle.join(' -> ')} import each other in a circle.`)).toEqual([]);
    });
  }
});

describe(`@svc/core folder order: ${CORE_FOLDER_ORDER.join(' < ')}`, () => {
  const src = join(REPO_ROOT, 'packages', 'core', 'src');
  const folderOf = (file: string) => {
    const parts = relative(src, join(REPO_ROOT, file)).split(sep);
    return parts.length > 1 ? parts[0]! : undefined;
  };

  it('places every folder of core/src', () => {
    const folders = new Set([...importGraph(src).keys()].map(folderOf).filter((folder) => folder !== undefined));
    const unplaced = [...folders].filter((folder) => !(CORE_FOLDER_ORDER as readonly string[]).includes(folder!));
    expect(unplaced.map((folder) => `core/src/${folder} is not in CORE_FOLDER_ORDER; place it.`)).toEqual([]);
  });

  it('never imports from a higher folder', () => {
    const rank = (folder: string | undefined) =>
      folder === undefined ? Infinity : (CORE_FOLDER_ORDER as readonly string[]).indexOf(folder);
    const upward: string[] = [];
    for (const [file, targets] of importGraph(src)) {
      for (const target of targets) {
        if (rank(folderOf(target)) > rank(folderOf(file)))
          upward.push(`${file} imports ${target}: ${folderOf(file)} sits below ${folderOf(target)}.`);
      }
    }
    expect(upward).toEqual([]);
  });
});
