/**
 * Reads the logs of `pnpm bench` kept in docs/benchmarks/: the median table each run prints per database, and the
 * latest measurement of each scenario on each database across all logs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One row of a run's median table: a scenario on one database, Svc against the hand-written app. */
export interface Measurement {
  readonly database: string;
  readonly scenario: string;
  /** Median requests per second of each app over the run's rounds. */
  readonly svc: number;
  readonly handwritten: number;
  /** The log it comes from, relative to the logs folder. */
  readonly log: string;
  /** When its run started (the log's `Svc benchmark <ISO time>` line), for ordering runs across logs. */
  readonly runAt: string;
  /** Its line in the log: a later table of the same run (a rerun) wins over an earlier one. */
  readonly line: number;
}

/** The scenarios in the order bench/run.ts runs them; a scenario it no longer has sorts after them. */
export const SCENARIO_ORDER: readonly string[] = [
  'list (limit 20)',
  'list-filtered',
  'list-include',
  'custom-read',
  'list-cached',
  'by id',
  'by-id-200',
  'by-id-cached',
  'create',
  'create-lean',
  'patch',
];

/** The databases in the order bench/run.ts runs them. */
export const DATABASE_ORDER: readonly string[] = ['sqlite', 'postgres'];

const DATABASE_NAMES: Readonly<Record<string, string>> = { sqlite: 'SQLite', postgres: 'PostgreSQL', mysql: 'MariaDB' };

/** How a database is named in the docs: `postgres` -> `PostgreSQL`. */
export function databaseName(database: string): string {
  return DATABASE_NAMES[database] ?? database;
}

const RUN_START = /^Svc benchmark\s+(\d{4}-\d{2}-\d{2}T[\d:.]+Z)\s*$/;
/** `sqlite: median of 3 round(s) x 5 s, ...`: the table under it has the columns scenario, Svc, hand-written, ... */
const MEDIAN_TABLE = /^(\w+): median of /;

/** Every measurement in `text`, the log named `log`. A table before any run line is dated by `fallbackRunAt`. */
export function parseBenchLog(text: string, log: string, fallbackRunAt = ''): Measurement[] {
  const out: Measurement[] = [];
  let runAt = fallbackRunAt;
  let database: string | undefined;
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    const run = RUN_START.exec(line);
    if (run) runAt = run[1]!;
    const table = MEDIAN_TABLE.exec(line);
    if (table) {
      database = table[1]!;
      return;
    }
    if (!line.startsWith('|')) {
      database = undefined;
      return;
    }
    if (database === undefined) return;
    const row = readRow(line);
    if (row) out.push({ database, ...row, log, runAt, line: index + 1 });
  });
  return out;
}

/** `| list (limit 20) |     1,858 |  1,591 | ...` -> scenario and the two medians; undefined for headers and rules. */
function readRow(line: string): { scenario: string; svc: number; handwritten: number } | undefined {
  const cells = line
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());
  const [scenario, svc, handwritten] = [cells[0], toNumber(cells[1]), toNumber(cells[2])];
  if (!scenario || scenario === 'scenario' || svc === undefined || handwritten === undefined) return undefined;
  return { scenario, svc, handwritten };
}

function toNumber(cell: string | undefined): number | undefined {
  if (cell === undefined || !/^[\d,]+(\.\d+)?$/.test(cell)) return undefined;
  return Number(cell.replace(/,/g, ''));
}

/** The `benchmark-*.txt` logs of `dir`, parsed; logs without a median table (pagination depth) add nothing. */
export function readBenchLogs(dir: string): Measurement[] {
  return readdirSync(dir)
    .filter((name) => /^benchmark-.*\.txt$/.test(name))
    .sort()
    .flatMap((name) => parseBenchLog(readFileSync(join(dir, name), 'utf8'), name));
}

/** The latest measurement of each scenario on each database, in scenario order, then database order. */
export function latestMeasurements(measurements: readonly Measurement[]): Measurement[] {
  const latest = new Map<string, Measurement>();
  for (const measurement of [...measurements].sort(byRun)) {
    latest.set(`${measurement.scenario}\u0000${measurement.database}`, measurement);
  }
  return [...latest.values()].sort(
    (a, b) =>
      rank(SCENARIO_ORDER, a.scenario) - rank(SCENARIO_ORDER, b.scenario) ||
      a.scenario.localeCompare(b.scenario) ||
      rank(DATABASE_ORDER, a.database) - rank(DATABASE_ORDER, b.database) ||
      a.database.localeCompare(b.database),
  );
}

function byRun(a: Measurement, b: Measurement): number {
  return a.runAt.localeCompare(b.runAt) || a.log.localeCompare(b.log) || a.line - b.line;
}

function rank(order: readonly string[], value: string): number {
  const index = order.indexOf(value);
  return index === -1 ? order.length : index;
}

/** Svc's median over the hand-written app's: above 1, Svc served more requests per second. */
export function ratioOf(measurement: Measurement): number {
  return measurement.svc / measurement.handwritten;
}

/** `values` in the order `order` gives, then the rest alphabetically, each once. */
export function inOrder(order: readonly string[], values: readonly string[]): string[] {
  const seen = [...new Set(values)];
  return [...order.filter((value) => seen.includes(value)), ...seen.filter((value) => !order.includes(value)).sort()];
}

/** 12345 -> `12,345`, the same on every machine (no locale data involved). */
export function grouped(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
