/**
 * Tables in the docs stay readable: no cell longer than a short paragraph. Detail that does not fit goes in a list or
 * a section below the table.
 */
import { join } from 'node:path';
import { filesUnder, fromRoot, readText, REPO_ROOT } from './repo-files';

/** About three sentences. */
const MAX_CELL = 300;

/** The cells of Markdown table rows outside code fences, with their file and line. */
function tableCells(path: string): { where: string; length: number; start: string }[] {
  const cells: { where: string; length: number; start: string }[] = [];
  let fenced = false;
  readText(path)
    .split('\n')
    .forEach((line, index) => {
      if (line.startsWith('```')) fenced = !fenced;
      if (fenced || !line.startsWith('|')) return;
      for (const cell of line.split(/(?<!\\)\|/).slice(1, -1)) {
        const text = cell.trim();
        cells.push({ where: `${fromRoot(path)}:${index + 1}`, length: text.length, start: text.slice(0, 60) });
      }
    });
  return cells;
}

describe('tables in the docs', () => {
  const files = [
    join(REPO_ROOT, 'README.md'),
    join(REPO_ROOT, 'bench', 'README.md'),
    ...filesUnder(join(REPO_ROOT, 'docs'), '.md'),
    ...filesUnder(join(REPO_ROOT, 'examples'), 'README.md').filter((path) => !path.includes('node_modules')),
  ];

  it(`have no cell longer than ${MAX_CELL} characters (move the rest below the table)`, () => {
    const long = files
      .flatMap(tableCells)
      .filter((cell) => cell.length > MAX_CELL)
      .map((cell) => `${cell.where}: ${cell.length} characters, "${cell.start}..."`);
    expect(long).toEqual([]);
  });
});
