/**
 * Runs one folder of the RealWorld Bruno collection (shared/realworld/api/bruno) with `bru run` against an origin,
 * and reads its JSON report: counts, and for each request that did not pass, what failed and what the app answered.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The collection, beside the repository (`shared/` next to the clone). */
export const BRUNO_DIR = brunoDir();

/**
 * Where the RealWorld suite is: `REALWORLD_BRUNO_DIR`, else `shared/realworld/api/bruno` beside the repository or
 * beside a folder above it (a clone elsewhere on the machine), else the machine's `/work/shared` copy. Never skipped:
 * a missing suite fails the run, naming where it looked.
 */
function brunoDir(): string {
  const given = process.env['REALWORLD_BRUNO_DIR'];
  if (given) return given;
  const tail = join('shared', 'realworld', 'api', 'bruno');
  const looked: string[] = [];
  for (let dir = join(__dirname, '..', '..', '..'); ; dir = dirname(dir)) {
    const candidate = join(dirname(dir), tail);
    looked.push(candidate);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) break;
  }
  const machine = join('/work', tail);
  if (existsSync(machine)) return machine;
  throw new Error(`The RealWorld suite is not at ${[...looked, machine].join(', ')}; set REALWORLD_BRUNO_DIR.`);
}
const BRU = join(__dirname, '..', 'node_modules', '.bin', 'bru');

/** The collection's folders, one per part of the API (`environments` holds the variables). */
export function brunoFolders(): string[] {
  return readdirSync(BRUNO_DIR)
    .filter((name) => name !== 'environments' && statSync(join(BRUNO_DIR, name)).isDirectory())
    .sort();
}

export interface Count {
  readonly passed: number;
  readonly total: number;
}

export interface FolderRun {
  readonly folder: string;
  readonly requests: Count;
  /**
   * The `assert` lines and the `expect`s of the post-response scripts. A script stops at its first failing `expect`
   * and Bru reports only that one, so all of a failing script's `expect`s count as failed.
   */
  readonly assertions: Count;
  /** One entry per request that did not pass: its name, what failed, and the response. */
  readonly failures: string[];
}

interface CheckResult {
  readonly status: string;
  readonly lhsExpr?: string;
  readonly rhsExpr?: string;
  readonly description?: string;
  readonly error?: string;
  readonly isScriptError?: boolean;
}

interface RequestResult {
  readonly name: string;
  readonly path: string;
  readonly status: string;
  readonly error?: string | null;
  readonly request?: { readonly method?: string; readonly url?: string };
  readonly response?: { readonly status?: number; readonly data?: unknown };
  readonly assertionResults?: CheckResult[];
  readonly testResults?: CheckResult[];
  readonly postResponseTestResults?: CheckResult[];
  readonly preRequestTestResults?: CheckResult[];
}

export async function runBrunoFolder(folder: string, origin: string): Promise<FolderRun> {
  const dir = mkdtempSync(join(tmpdir(), 'realworld-bruno-'));
  const report = join(dir, 'out.json');
  const args = ['run', folder, '--env', 'local', '--env-var', `host=${origin}`, '--sandbox', 'safe'];
  try {
    const output = await new Promise<string>((resolve) =>
      // bru exits 1 when a request fails: the report says which.
      execFile(BRU, [...args, '--reporter-json', report], { cwd: BRUNO_DIR, timeout: 120_000 }, (_error, out, err) =>
        resolve(`${out}${err}`),
      ),
    );
    let results: RequestResult[];
    try {
      results = (JSON.parse(readFileSync(report, 'utf8')) as { results: RequestResult[] }[])[0]!.results;
    } catch {
      throw new Error(`bru run ${folder} wrote no report:\n${output.slice(-2000)}`);
    }
    return summarize(folder, results);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function summarize(folder: string, results: readonly RequestResult[]): FolderRun {
  let checks = 0;
  let passedChecks = 0;
  const failures: string[] = [];
  for (const result of results) {
    const all = [
      ...(result.assertionResults ?? []),
      ...(result.testResults ?? []),
      ...(result.preRequestTestResults ?? []),
      ...(result.postResponseTestResults ?? []),
    ];
    const failed = all.filter((check) => check.status !== 'pass');
    const scriptFailed = failed.some((check) => check.isScriptError);
    const expects = expectsIn(result.path);
    checks += all.filter((check) => !check.isScriptError).length + expects;
    passedChecks += all.filter((check) => check.status === 'pass').length + (scriptFailed ? 0 : expects);
    if (result.status === 'pass' && failed.length === 0) continue;
    const what = failed.map((check) =>
      check.lhsExpr
        ? `${check.lhsExpr}: ${check.rhsExpr} (${check.error ?? check.status})`
        : `${check.description}: ${check.error}`,
    );
    if (result.error) what.push(String(result.error));
    const body = JSON.stringify(result.response?.data ?? null).slice(0, 600);
    failures.push(
      `${result.path} "${result.name}": ${result.request?.method ?? ''} ${result.request?.url ?? ''}\n` +
        what.map((line) => `    ${line}\n`).join('') +
        `    answered ${result.response?.status ?? 'nothing'} ${body}`,
    );
  }
  const passed = results.length - failures.length;
  return {
    folder,
    requests: { passed, total: results.length },
    assertions: { passed: passedChecks, total: checks },
    failures,
  };
}

/** How many `expect(...)` checks the request file's scripts make (`auth/01-register` is `auth/01-register.bru`). */
function expectsIn(path: string): number {
  return readFileSync(join(BRUNO_DIR, `${path}.bru`), 'utf8').match(/\bexpect\(/g)?.length ?? 0;
}

/** The per-folder table: requests and assertions passed of each folder, and the totals. */
export function countsTable(title: string, runs: readonly FolderRun[]): string {
  const sum = (pick: (run: FolderRun) => Count): Count => ({
    passed: runs.reduce((total, run) => total + pick(run).passed, 0),
    total: runs.reduce((total, run) => total + pick(run).total, 0),
  });
  const cell = (count: Count) => `${count.passed}/${count.total}`.padStart(9);
  const line = (name: string, requests: Count, assertions: Count) =>
    `${name.padEnd(22)} ${cell(requests)} ${cell(assertions)}`;
  return [
    title,
    `${'folder'.padEnd(22)} ${'requests'.padStart(9)} ${'asserts'.padStart(9)}`,
    ...runs.map((run) => line(run.folder, run.requests, run.assertions)),
    line(
      'total',
      sum((run) => run.requests),
      sum((run) => run.assertions),
    ),
  ].join('\n');
}
