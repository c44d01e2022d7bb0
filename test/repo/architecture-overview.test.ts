/**
 * `docs/architecture/overview.md` is the map an engineer changes the code by, and a map is only of use while it is
 * true: every repository path it names exists (at the line it points at, when it points at one), every link it holds
 * resolves, every link into it from the other pages lands on one of its headings, and every code name it puts in
 * backticks is one the packages export. The stage-lists block is generated from the engine and checked by
 * `packages/core/test/service/operation-stages.test.ts`, so it is left out here.
 */
import { dirname, join, relative, resolve, sep } from 'node:path';
import { exists, filesUnder, fromRoot, readText, REPO_ROOT } from './repo-files';

const OVERVIEW = join(REPO_ROOT, 'docs', 'architecture', 'overview.md');

/**
 * Names in backticks that are wire or schema names, not code: the named schemas of the bookstore's `Book` as the
 * description calls them (`#/$defs/Book`, ...), query parameters, and the ids of the custom operations the stage
 * table shows (a config's keys).
 */
const WIRE_NAMES: ReadonlySet<string> = new Set([
  'Book',
  'BookListItem',
  'BookList',
  'BookCreate',
  'BookUpdate',
  'BookPatch',
  'BookFilter',
  'BookAggregate',
  'Problem',
  'withDeleted',
  'onlyDeleted',
  'publishBookOne',
  'cheapBooksMany',
]);

/** One thing the overview mentions, with the line it is on. */
export interface Mention {
  readonly line: number;
  readonly text: string;
}

/** The overview's lines, numbered from 1, without the generated stage-lists block. */
function overviewLines(text: string): Mention[] {
  const lines = text.split('\n').map((line, index) => ({ line: index + 1, text: line }));
  const start = lines.findIndex(({ text: line }) => line.trim() === '<!-- stage-lists:start -->');
  const end = lines.findIndex(({ text: line }) => line.trim() === '<!-- stage-lists:end -->');
  return start !== -1 && end > start ? [...lines.slice(0, start), ...lines.slice(end + 1)] : lines;
}

/** Repository paths (`packages/...`, `test/...`, `docs/...`, `examples/...`), each with its line anchor if any. */
export function repositoryPaths(lines: readonly Mention[]): (Mention & { readonly at?: number })[] {
  const pattern = /(?<![\w./@-])((?:packages|test|docs|examples)\/[\w.@/-]*)(?::(\d+)|#L(\d+))?/g;
  return lines.flatMap(({ line, text }) =>
    [...text.matchAll(pattern)].map((match) => {
      const path = match[1]!.replace(/[./]+$/, '');
      const at = match[2] ?? match[3];
      return at === undefined ? { line, text: path } : { line, text: path, at: Number(at) };
    }),
  );
}

/** Inline code spans outside fenced blocks. */
export function codeSpans(lines: readonly Mention[]): Mention[] {
  let fenced = false;
  const spans: Mention[] = [];
  for (const { line, text } of lines) {
    if (text.trimStart().startsWith('```')) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    for (const match of text.matchAll(/`([^`]+)`/g)) spans.push({ line, text: match[1]!.trim() });
  }
  return spans;
}

/** What a code span names: `SvcEngine.execute` -> ['SvcEngine', 'execute']; `@Svc(Entity, config)` -> ['Svc']. */
export function namePath(span: string): string[] | undefined {
  const bare = /^@[A-Z]/.test(span) ? span.slice(1) : span;
  const match = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\(.*\))?$/.exec(bare);
  return match ? match[1]!.split('.') : undefined;
}

type NameKind = 'code' | 'constant' | 'error code' | 'word';

/**
 * How a name is checked: camelCase and PascalCase names are code (exported by a package), CONSTANT_CASE names are
 * declared constants, `SVC_*` are catalog codes, and anything else (a lowercase word, a file name) is not checked.
 */
export function kindOf(name: string): NameKind {
  if (/^SVC_[A-Z0-9_]+$/.test(name)) return 'error code';
  if (/^[A-Z][A-Z0-9_]+$/.test(name)) return 'constant';
  if (/^[a-z][a-z0-9]*[A-Z][\w$]*$/.test(name) || /^[A-Z](?=[\w$]*[a-z])[\w$]*$/.test(name)) return 'code';
  return 'word';
}

/** The TypeScript sources of every package. */
function packageSources(): { readonly path: string; readonly text: string }[] {
  const skipped = new RegExp(`\\${sep}(node_modules|dist)\\${sep}`);
  return filesUnder(join(REPO_ROOT, 'packages'), '.ts')
    .filter((path) => path.includes(`${sep}src${sep}`) && !skipped.test(path) && !path.endsWith('.d.ts'))
    .map((path) => ({ path, text: readText(path) }));
}

/** The names a source exports: its exported declarations and the names of its export lists (`a as b` exports b). */
export function exportedNames(text: string): string[] {
  const names: string[] = [];
  const declaration =
    /\bexport\s+(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:async\s+)?(?:const|let|var|function\*?|class|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)/g;
  for (const match of text.matchAll(declaration)) names.push(match[1]!);
  for (const match of text.matchAll(/\bexport\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const element of match[1]!.split(',')) {
      const words = element
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/);
      const name = words[words.length - 1]!.trim();
      if (name) names.push(name);
    }
  }
  return names;
}

/** The names a source declares, exported or not. */
function declaredNames(text: string): string[] {
  const pattern = /\b(?:const|let|var|function\*?|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g;
  return [...text.matchAll(pattern)].map((match) => match[1]!);
}

/** GitHub's anchor of a heading: lowercase, punctuation dropped, spaces as hyphens; repeats get `-1`, `-2`, .... */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    const heading = fenced ? undefined : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const seen = counts.get(slug) ?? 0;
    counts.set(slug, seen + 1);
    anchors.add(seen === 0 ? slug : `${slug}-${seen}`);
  }
  return anchors;
}

/** The targets of Markdown links that stay in the repository (no scheme), as written. */
function relativeLinks(lines: readonly Mention[]): Mention[] {
  return lines.flatMap(({ line, text }) =>
    [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1]!)
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .map((target) => ({ line, text: target })),
  );
}

describe('docs/architecture/overview.md', () => {
  const text = readText(OVERVIEW);
  const lines = overviewLines(text);
  const where = (mention: Mention) => `${fromRoot(OVERVIEW)}:${mention.line}`;

  describe('the parts of this check', () => {
    it('reads a path with or without its line anchor, and leaves its sentence out', () => {
      const found = repositoryPaths([{ line: 1, text: 'See packages/core/src/spi.ts:12, and test/repo/x.test.ts.' }]);
      expect(found).toEqual([
        { line: 1, text: 'packages/core/src/spi.ts', at: 12 },
        { line: 1, text: 'test/repo/x.test.ts' },
      ]);
    });

    it('reads the name a code span stands for', () => {
      expect(namePath('SvcEngine.execute')).toEqual(['SvcEngine', 'execute']);
      expect(namePath("@Override('<id>')")).toEqual(['Override']);
      expect(namePath('toolNameOf(entity, operation)')).toEqual(['toolNameOf']);
      expect(namePath('GET /count')).toBeUndefined();
      expect(namePath('@svc/core/spi')).toBeUndefined();
    });

    it('checks code, constants and error codes, and leaves words alone', () => {
      expect(
        ['describeEntity', 'RepositoryAdapter', 'ROOT_FIELDS', 'SVC_CONFLICT', 'count', 'stage'].map(kindOf),
      ).toEqual(['code', 'code', 'constant', 'error code', 'word', 'word']);
    });

    it('finds exported names in declarations and export lists', () => {
      const source = [
        'export function a() {}',
        'export const B_C = 1;',
        'export type { D, type E } from "./x";',
        'export { F as G };',
        'function hidden() {}',
      ].join('\n');
      expect(exportedNames(source).sort()).toEqual(['B_C', 'D', 'E', 'G', 'a']);
    });
  });

  it('names repository paths that exist, at lines that exist', () => {
    const paths = repositoryPaths(lines);
    expect(paths.length).toBeGreaterThan(50);
    const missing = paths.flatMap((mention) => {
      const path = join(REPO_ROOT, mention.text);
      if (!exists(path)) return [`${where(mention)} names ${mention.text}, which does not exist.`];
      if (mention.at !== undefined && readText(path).split('\n').length < mention.at)
        return [`${where(mention)} points at ${mention.text} line ${mention.at}, past the end of the file.`];
      return [];
    });
    expect(missing).toEqual([]);
  });

  it('links to files that exist and to headings that exist', () => {
    const links = relativeLinks(lines);
    expect(links.length).toBeGreaterThan(10);
    const own = anchorsOf(text);
    const broken = links.flatMap((mention) => {
      const [file, anchor] = mention.text.split('#') as [string, string | undefined];
      const target = file === '' ? OVERVIEW : resolve(dirname(OVERVIEW), file);
      if (!exists(target)) return [`${where(mention)} links to ${mention.text}: ${fromRoot(target)} does not exist.`];
      if (anchor === undefined || !target.endsWith('.md')) return [];
      const anchors = target === OVERVIEW ? own : anchorsOf(readText(target));
      return anchors.has(anchor)
        ? []
        : [`${where(mention)} links to ${mention.text}: ${fromRoot(target)} has no heading '#${anchor}'.`];
    });
    expect(broken).toEqual([]);
  });

  it('keeps the headings the other pages link to', () => {
    const own = anchorsOf(text);
    const pages = [join(REPO_ROOT, 'README.md'), ...filesUnder(join(REPO_ROOT, 'docs'), '.md')].filter(
      (page) => page !== OVERVIEW,
    );
    const broken = pages.flatMap((page) =>
      [...readText(page).matchAll(/\]\(([^)\s]*overview\.md)#([^)\s]+)\)/g)]
        .filter((match) => resolve(dirname(page), match[1]!) === OVERVIEW)
        .filter((match) => !own.has(match[2]!))
        .map((match) => `${relative(REPO_ROOT, page)} links to overview.md#${match[2]}, a heading the overview lacks.`),
    );
    expect(broken).toEqual([]);
  });

  it('names in backticks only code that the packages export, constants they declare and codes of the catalog', () => {
    const sources = packageSources();
    const exported = new Set(sources.flatMap((source) => exportedNames(source.text)));
    const declaring = new Map<string, string[]>();
    for (const source of sources) {
      for (const name of declaredNames(source.text)) declaring.set(name, [...(declaring.get(name) ?? []), source.text]);
    }
    const catalog = readText(join(REPO_ROOT, 'packages', 'core', 'src', 'errors', 'error-catalog.ts'));
    const codes = new Set([...catalog.matchAll(/^\s+(SVC_[A-Z0-9_]+):/gm)].map((match) => match[1]!));

    const named = codeSpans(lines).flatMap((span) => {
      const path = namePath(span.text);
      return path && !WIRE_NAMES.has(path[0]!) && kindOf(path[0]!) !== 'word' ? [{ ...span, path }] : [];
    });
    expect(named.length).toBeGreaterThan(100);

    const unknown = named.flatMap(({ line, text: span, path }) => {
      const [head, ...members] = path as [string, ...string[]];
      const at = `${fromRoot(OVERVIEW)}:${line}`;
      switch (kindOf(head)) {
        case 'error code':
          return codes.has(head) ? [] : [`${at} names ${head}, which is not a code of ERROR_CATALOG.`];
        case 'constant':
          return declaring.has(head) ? [] : [`${at} names ${head}, which no file under packages/*/src declares.`];
        case 'code': {
          if (!exported.has(head))
            return [
              `${at} names \`${span}\`: no file under packages/*/src exports ${head}. Name an exported one, or add ` +
                `it to WIRE_NAMES if it is a config key or a wire name.`,
            ];
          const texts = declaring.get(head) ?? [];
          return members
            .filter(
              (member) => !texts.some((source) => new RegExp(`\\b${member.replace(/\$/g, '\\$')}\\b`).test(source)),
            )
            .map((member) => `${at} names \`${span}\`: the file that declares ${head} never mentions ${member}.`);
        }
        default:
          return [];
      }
    });
    expect(unknown).toEqual([]);
  });
});
