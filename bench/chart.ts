/**
 * `pnpm bench:chart`: turns the `pnpm bench` logs in docs/benchmarks/ into docs/benchmark.svg (grouped bars, Svc
 * against hand-written, per scenario and database) and the summary table of docs/benchmarks.md. Keep a new run's
 * output as docs/benchmarks/benchmark-<date>[-<what>].txt, then run this; each scenario shows its latest run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { renderChartSvg } from './bench-chart';
import { latestMeasurements, readBenchLogs, type Measurement } from './bench-log';
import { renderSummaryTable, withSummaryTable } from './bench-table';

const REPO_ROOT = join(__dirname, '..');
export const LOGS_DIR = join(REPO_ROOT, 'docs', 'benchmarks');
export const CHART_FILE = join(REPO_ROOT, 'docs', 'benchmark.svg');
export const PAGE_FILE = join(REPO_ROOT, 'docs', 'benchmarks.md');

/** What the chart and the page hold for the logs now in docs/benchmarks/. */
export function benchmarkDocs(): { measurements: Measurement[]; svg: string; page: string } {
  const measurements = latestMeasurements(readBenchLogs(LOGS_DIR));
  if (measurements.length === 0) throw new Error(`No benchmark table found in ${relative(REPO_ROOT, LOGS_DIR)}/.`);
  const table = renderSummaryTable(measurements, (log) => `[${shortName(log)}](benchmarks/${log})`);
  return {
    measurements,
    svg: renderChartSvg(measurements),
    page: withSummaryTable(readFileSync(PAGE_FILE, 'utf8'), table),
  };
}

/** `benchmark-2026-11-23-final.txt` -> `2026-11-23-final`. */
function shortName(log: string): string {
  return log.replace(/^benchmark-/, '').replace(/\.txt$/, '');
}

if (require.main === module) {
  const { measurements, svg, page } = benchmarkDocs();
  writeFileSync(CHART_FILE, svg);
  writeFileSync(PAGE_FILE, page);
  const logs = new Set(measurements.map((m) => m.log)).size;
  console.log(
    `${measurements.length} measurements from ${logs} logs: wrote ${relative(REPO_ROOT, CHART_FILE)} and the table ` +
      `of ${relative(REPO_ROOT, PAGE_FILE)}.`,
  );
}
