/** docs/benchmarks.md and docs/benchmark.svg show what the logs in docs/benchmarks/ hold, and every log link resolves. */
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { latestMeasurements, parseBenchLog } from '../../bench/bench-log';
import { benchmarkDocs, CHART_FILE, PAGE_FILE } from '../../bench/chart';
import { exists, filesUnder, fromRoot, readText, REPO_ROOT } from './repo-files';

const RUN = 'Svc benchmark  2026-11-23T10:00:00.000Z';
const TABLE = (db: string, svc: string, hand: string) =>
  [
    `${db}: median of 3 round(s) x 5 s, 10 connections, 10,000 books`,
    '| scenario        | Svc req/s | hand-written req/s | Svc / hand | Svc p99 ms | hand p99 ms |',
    '|:----------------|----------:|-------------------:|-----------:|-----------:|------------:|',
    `| by id           |     ${svc} |              ${hand} |       1.00 |          6 |           6 |`,
  ].join('\n');

describe('bench/bench-log.ts', () => {
  it('reads each median table row as a measurement of its database', () => {
    const measurements = parseBenchLog(`${RUN}\n${TABLE('sqlite', '5,620', '4,500')}\n`, 'a.txt');
    expect(measurements).toEqual([
      expect.objectContaining({ database: 'sqlite', scenario: 'by id', svc: 5620, handwritten: 4500, log: 'a.txt' }),
    ]);
  });

  it('skips the other tables of a log, such as the result cache table', () => {
    const cache = ['sqlite: result cache (warm)', '| read | Svc cache off |', '| list (limit 20) | 1,859 |'].join('\n');
    expect(parseBenchLog(`${RUN}\n${cache}\n`, 'a.txt')).toEqual([]);
  });

  it('keeps the latest run of a scenario, and a later table of the same run over an earlier one', () => {
    const earlier = parseBenchLog(`${RUN}\n${TABLE('sqlite', '100', '100')}\n`, 'b.txt');
    const later = parseBenchLog(
      `${RUN.replace('10:00', '11:00')}\n${TABLE('sqlite', '200', '100')}\n\n${TABLE('sqlite', '300', '100')}\n`,
      'a.txt',
    );
    expect(latestMeasurements([...later, ...earlier]).map((m) => m.svc)).toEqual([300]);
  });
});

describe('docs/benchmarks.md and docs/benchmark.svg', () => {
  const docs = benchmarkDocs();

  it('draw every scenario of the logs on SQLite and PostgreSQL', () => {
    expect(new Set(docs.measurements.map((m) => m.database))).toEqual(new Set(['sqlite', 'postgres']));
    expect(docs.measurements.length).toBeGreaterThanOrEqual(20);
  });

  it('hold the chart `pnpm bench:chart` draws from the logs', () => {
    expect(readText(CHART_FILE)).toBe(docs.svg);
  });

  it('hold the summary table `pnpm bench:chart` writes from the logs', () => {
    expect(readText(PAGE_FILE)).toBe(docs.page);
  });
});

describe('the benchmark logs', () => {
  it('live in docs/benchmarks/, none at the top of docs/', () => {
    expect(readdirSync(join(REPO_ROOT, 'docs')).filter((name) => name.endsWith('.txt'))).toEqual([]);
  });

  it('are linked with paths that resolve, from the READMEs and the docs', () => {
    const sources = [
      join(REPO_ROOT, 'README.md'),
      join(REPO_ROOT, 'bench', 'README.md'),
      ...filesUnder(join(REPO_ROOT, 'docs'), '.md'),
    ];
    const broken = sources.flatMap((source) =>
      [...readText(source).matchAll(/\]\(([^)\s]*benchmark[^)\s]*\.(?:txt|svg|md))\)/g)]
        .map((match) => match[1]!)
        .filter((target) => !exists(resolve(dirname(source), target)))
        .map((target) => `${fromRoot(source)} -> ${target}`),
    );
    expect(broken).toEqual([]);
  });
});
