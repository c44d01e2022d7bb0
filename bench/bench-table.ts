/**
 * The benchmark summary as a Markdown table, one row per scenario and a column group per database, and its place in
 * docs/benchmarks.md between two markers.
 */
import { databaseName, DATABASE_ORDER, grouped, inOrder, ratioOf, SCENARIO_ORDER, type Measurement } from './bench-log';

export const TABLE_START = '<!-- bench:chart table start: written by `pnpm bench:chart`, do not edit -->';
export const TABLE_END = '<!-- bench:chart table end -->';

/**
 * The table for `measurements` (as `latestMeasurements` returns them). `logLink` turns a log's file name into the
 * Markdown link of the row's last column.
 */
export function renderSummaryTable(measurements: readonly Measurement[], logLink: (log: string) => string): string {
  const scenarios = inOrder(
    SCENARIO_ORDER,
    measurements.map((m) => m.scenario),
  );
  const databases = inOrder(
    DATABASE_ORDER,
    measurements.map((m) => m.database),
  );
  const header = [
    'Scenario',
    ...databases.flatMap((db) => {
      const name = databaseName(db);
      return [`${name}: Svc req/s`, `${name}: hand-written req/s`, `${name}: Svc / hand`];
    }),
    'Log',
  ];
  const rows = scenarios.map((scenario) => {
    const cells = databases.flatMap((database) => {
      const m = measurements.find((candidate) => candidate.scenario === scenario && candidate.database === database);
      return m ? [grouped(m.svc), grouped(m.handwritten), ratioOf(m).toFixed(2)] : ['', '', ''];
    });
    const logs = inOrder(
      [],
      measurements.filter((m) => m.scenario === scenario).map((m) => m.log),
    );
    return [scenario, ...cells, logs.map(logLink).join(', ')];
  });
  const align = ['---', ...databases.flatMap(() => ['---:', '---:', '---:']), '---'];
  return [header, align, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/** `document` with the text between TABLE_START and TABLE_END replaced by `table`; an error when a marker is missing. */
export function withSummaryTable(document: string, table: string): string {
  const start = document.indexOf(TABLE_START);
  const end = document.indexOf(TABLE_END);
  if (start === -1 || end < start) {
    throw new Error(`docs/benchmarks.md needs the lines ${TABLE_START} and ${TABLE_END}, in that order.`);
  }
  return `${document.slice(0, start + TABLE_START.length)}\n\n${table}\n\n${document.slice(end)}`;
}
