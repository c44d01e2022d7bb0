/** The error catalog and docs/reference/errors.md stay in step: every code documented, with its status. */
import { join } from 'node:path';
import { ERROR_CATALOG } from '@svc/core';
import { readText, REPO_ROOT } from './repo-files';

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
});
