/**
 * Figures the suites measure on the way (fuzz case counts, heap growth, protocol audit tallies): written to
 * `test-output/report.txt`, one block per call, so the test output shows only what passed and what failed.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_OUTPUT_DIR } from './openapi-checks';

/** Where `report` writes. */
export const TEST_REPORT_FILE = join(TEST_OUTPUT_DIR, 'report.txt');

/** Appends `text` (and a newline) to the report, with the time and the suite's platform. */
export function report(text: string): void {
  mkdirSync(TEST_OUTPUT_DIR, { recursive: true });
  appendFileSync(TEST_REPORT_FILE, `[${new Date().toISOString()}] ${text.replace(/\n$/, '')}\n`);
}
