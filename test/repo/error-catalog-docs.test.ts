/**
 * The error catalog and docs/reference/errors.md stay in step: every code documented, with its status, and every item
 * code the packages put in `errors[]`.
 */
import { join, relative } from 'node:path';
import { ERROR_CATALOG } from '@svc/core';
import { filesUnder, packageDirs, readText, REPO_ROOT } from './repo-files';

const DOC = 'docs/reference/errors.md';
const CODE = /\bSVC_[A-Z0-9_]+\b/g;

/** The codes table: rows that start with a code in backticks, then the status. */
function documentedStatuses(text: string): Map<string, number> {
  const rows = new Map<string, number>();
  for (const match of text.matchAll(/^\|\s*`(SVC_[A-Z0-9_]+)`\s*\|\s*(\d{3})\s*\|/gm)) {
    rows.set(match[1]!, Number(match[2]));
  }
  return rows;
}

/**
 * Item codes as the sources write them: an item's `code: '<code>'`, the code argument of `errors.add(param, '<code>',
 * ...)` and of a batch's `problems.add(index, field, '<code>', ...)`, and the failed keyword an agent tool's argument
 * check passes to `fail('<code>', ...)`. A class-validator constraint name is the app's, not the packages'.
 */
const ITEM_CODE_SOURCES: readonly { readonly pattern: RegExp; readonly file?: string }[] = [
  { pattern: /\bcode: '([a-z][A-Za-z_]*)'/g },
  { pattern: /\.add\(\s*[^,()]+,\s*(?:[^,()]+,\s*)?'([a-z][A-Za-z_]*)',/g },
  { pattern: /\bfail\(\s*'([a-z][A-Za-z_]*)',/g, file: 'packages/mcp/src/validate-arguments.ts' },
];

/** Each item code the packages' sources emit, with the first file that does. */
function emittedItemCodes(): Map<string, string> {
  const codes = new Map<string, string>();
  for (const dir of packageDirs()) {
    for (const path of filesUnder(join(dir, 'src'), '.ts')) {
      const file = relative(REPO_ROOT, path);
      const text = readText(path);
      for (const { pattern, file: only } of ITEM_CODE_SOURCES) {
        if (only !== undefined && only !== file) continue;
        for (const match of text.matchAll(pattern)) if (!codes.has(match[1]!)) codes.set(match[1]!, file);
      }
    }
  }
  return codes;
}

/** What the "Item codes inside `errors[]`" section names in backticks: its table's rows and the prose around them. */
function documentedItemCodes(text: string): Set<string> {
  const start = text.indexOf('### Item codes inside `errors[]`');
  const end = text.indexOf('\n#', start + 1);
  const section = text.slice(start, end === -1 ? undefined : end);
  return new Set([...section.matchAll(/`([A-Za-z_]+)`/g)].map((match) => match[1]!));
}

describe(DOC, () => {
  const text = readText(join(REPO_ROOT, DOC));
  const catalog = Object.keys(ERROR_CATALOG);
  const rows = documentedStatuses(text);

  it('has a table row for every code in ERROR_CATALOG', () => {
    const missing = catalog.filter((code) => !rows.has(code));
    expect(missing).toEqual([]);
  });

  it('gives each code the status the catalog binds it to', () => {
    const wrong = catalog
      .filter((code) => rows.has(code) && rows.get(code) !== ERROR_CATALOG[code as keyof typeof ERROR_CATALOG].status)
      .map(
        (code) =>
          `${code}: doc says ${rows.get(code)}, catalog says ${ERROR_CATALOG[code as keyof typeof ERROR_CATALOG].status}`,
      );
    expect(wrong).toEqual([]);
  });

  it('names no SVC_ code that the catalog lacks', () => {
    const unknown = [...new Set(text.match(CODE) ?? [])].filter((code) => !catalog.includes(code));
    expect(unknown).toEqual([]);
  });

  it('names every item code the packages emit in the item codes section', () => {
    expect(text).toContain('### Item codes inside `errors[]`');
    const documented = documentedItemCodes(text);
    const emitted = emittedItemCodes();
    expect(emitted.size).toBeGreaterThan(30);
    const missing = [...emitted]
      .filter(([code]) => !documented.has(code))
      .map(([code, file]) => `${code} (emitted in ${file})`);
    expect(missing).toEqual([]);
  });
});
