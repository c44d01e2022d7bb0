/**
 * The testing and authentication guides show the code of the app under test/guide-app, whose own tests run it, so a
 * guide cannot show code that no longer works. A block whose first line names a file of the app
 * (`// src/app.module.ts`) is that file, whole; one that adds `, in part` (`// test/test-app.ts, in part`) holds parts
 * of it, split at `// ...` lines, each found in the file line for line (a part from inside a function may be shown
 * less indented). Every other block of a section the docs check counts as run (RUN_SECTIONS) must be a fragment.
 */
import { dirname, join } from 'node:path';
import { docBlocks, isMarkedFragment, RUN_SECTIONS, type DocBlock } from '../support/doc-blocks';
import { exists, readText, REPO_ROOT } from './repo-files';

const APP = join(REPO_ROOT, 'test', 'guide-app');
const GUIDES = ['docs/guide/testing.md', 'docs/guide/authentication.md'];
const NAMES_A_FILE = /^\/\/ ((?:src|test)\/[\w./-]+\.ts)(, in part)?$/;
const ELISION = /^\s*\/\/ \.\.\.$/;

interface ShownFile {
  readonly where: string;
  readonly file: string;
  readonly inPart: boolean;
  /** The block without its first line. */
  readonly code: string;
}

function shownFile(guide: string, block: DocBlock): ShownFile | undefined {
  const [first = '', ...rest] = block.body.split('\n');
  const named = NAMES_A_FILE.exec(first);
  if (block.lang !== 'ts' || !named) return undefined;
  return { where: `${guide}:${block.line}`, file: named[1]!, inPart: named[2] !== undefined, code: rest.join('\n') };
}

/** The parts of an `in part` block: its lines split at `// ...`, without blank lines at either end. */
function partsOf(code: string): string[][] {
  const parts: string[][] = [[]];
  for (const line of code.split('\n')) {
    if (ELISION.test(line)) parts.push([]);
    else parts[parts.length - 1]!.push(line);
  }
  const trimmed = (lines: string[]) => {
    const start = lines.findIndex((line) => line.trim() !== '');
    const end = lines.length - [...lines].reverse().findIndex((line) => line.trim() !== '');
    return start === -1 ? [] : lines.slice(start, end);
  };
  return parts.map(trimmed).filter((part) => part.length > 0);
}

/** True when `part` is lines of `source` in a row, each with the same extra indentation (blank lines stay blank). */
function occursIn(source: readonly string[], part: readonly string[]): boolean {
  for (let start = 0; start + part.length <= source.length; start++) {
    const first = source[start]!;
    if (!first.endsWith(part[0]!)) continue;
    const indent = first.slice(0, first.length - part[0]!.length);
    if (indent.trim() !== '') continue;
    if (part.every((line, index) => source[start + index] === (line === '' ? '' : indent + line))) return true;
  }
  return false;
}

/** The anchors of a Markdown page: each heading as GitHub slugs it, and each `<a id="...">`. */
function anchorsOf(markdown: string): Set<string> {
  const headings = [...markdown.matchAll(/^#{1,6}\s+(.+)$/gm)].map(([, heading]) =>
    heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-'),
  );
  return new Set([...headings, ...[...markdown.matchAll(/<a id="([^"]+)">/g)].map(([, id]) => id!)]);
}

describe.each(GUIDES)('the code %s shows', (guide) => {
  const blocks = docBlocks(join(REPO_ROOT, guide));
  const shown = blocks.flatMap((block) => shownFile(guide, block) ?? []);
  const source = (file: string) => readText(join(APP, file)).replace(/\n$/, '');

  it('is files of test/guide-app, several of them', () => {
    expect(shown.length).toBeGreaterThan(3);
    const missing = shown.filter((block) => !exists(join(APP, block.file))).map((block) => block.where);
    expect(missing).toEqual([]);
  });

  it('shows a file it names without `in part` exactly as it is', () => {
    const differ = shown
      .filter((block) => !block.inPart && exists(join(APP, block.file)))
      .filter((block) => block.code !== source(block.file))
      .map((block) => `${block.where}: the block is not test/guide-app/${block.file} as it is`);
    expect(differ).toEqual([]);
  });

  it('takes each part of an `in part` block from its file, line for line', () => {
    const notFound = shown
      .filter((block) => block.inPart && exists(join(APP, block.file)))
      .flatMap((block) => {
        const lines = source(block.file).split('\n');
        return partsOf(block.code)
          .filter((part) => !occursIn(lines, part))
          .map((part) => `${block.where}: test/guide-app/${block.file} has no lines "${part[0]}" ... "${part.at(-1)}"`);
      });
    expect(notFound).toEqual([]);
  });

  it('marks as a fragment every other block of the sections the docs check counts as run', () => {
    const run = new Set(RUN_SECTIONS.filter((entry) => entry.file === guide).map((entry) => entry.section));
    const untied = blocks
      .filter((block) => run.has(block.section) && !shownFile(guide, block) && !isMarkedFragment(block))
      .map((block) => `${guide}:${block.line} (${block.section})`);
    expect(run.size).toBeGreaterThan(0);
    expect(untied).toEqual([]);
  });

  it('links to files that exist, and to headings they have', () => {
    const text = readText(join(REPO_ROOT, guide));
    const broken = [...text.matchAll(/\]\(([^)\s#]*)(?:#([^)\s]+))?\)/g)].flatMap(([link, target = '', anchor]) => {
      if (/^[a-z]+:/.test(target)) return [];
      const path = target === '' ? join(REPO_ROOT, guide) : join(REPO_ROOT, dirname(guide), target);
      if (!exists(path)) return [`${link}: no such file`];
      if (anchor === undefined || !path.endsWith('.md')) return [];
      return anchorsOf(readText(path)).has(anchor) ? [] : [`${link}: no such heading`];
    });
    expect(broken).toEqual([]);
  });
});
