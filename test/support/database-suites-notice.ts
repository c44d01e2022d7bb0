/**
 * Jest's global teardown (jest.config.ts): after the summary of a run that included database suites, says which
 * databases they did not run on, because their `SVC_TEST_*` variable is unset, and how to run them. Silent when every
 * variable is set, and on runs that select no database suite (`jest examples`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A database whose suites run only when its variable names a server, as README.md lists them. */
interface OptionalDatabase {
  readonly name: string;
  readonly variable: string;
  readonly example: string;
}

export const OPTIONAL_DATABASES: readonly OptionalDatabase[] = [
  { name: 'PostgreSQL', variable: 'SVC_TEST_POSTGRES_URL', example: 'postgres://postgres@127.0.0.1:5432/test' },
  { name: 'MariaDB', variable: 'SVC_TEST_MYSQL_URL', example: 'mysql://root@127.0.0.1:3306/test' },
];

/** A suite runs once per database when it iterates `TEST_DATABASES` (test/support/test-databases.ts). */
const DATABASE_SUITE = /\bTEST_DATABASES\b/;
/** A suite that needs Redis runs its tests through `describeWithRedis`: only when `SVC_TEST_REDIS_URL` is set. */
export const REDIS_SUITE = /\bdescribeWithRedis\b/;

/** The notice for Redis suites when `SVC_TEST_REDIS_URL` is unset; undefined when it is set. */
export function redisSuitesNotice(env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (env['SVC_TEST_REDIS_URL']) return undefined;
  return (
    'Redis suites did not run: set SVC_TEST_REDIS_URL=redis://127.0.0.1:6379 (its database 0; /5 at the end for ' +
    'database 5; see README.md, "pnpm test").'
  );
}

/**
 * The notice for the variables `env` leaves unset, such as `PostgreSQL and MariaDB suites did not run: set
 * SVC_TEST_POSTGRES_URL=... and SVC_TEST_MYSQL_URL=... (see README.md)`; undefined when all are set.
 */
export function databaseSuitesNotice(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const missing = OPTIONAL_DATABASES.filter((db) => !env[db.variable]);
  if (missing.length === 0) return undefined;
  const names = missing.map((db) => db.name).join(' and ');
  const settings = missing.map((db) => `${db.variable}=${db.example}`).join(' and ');
  return `${names} suites did not run: set ${settings} (see README.md, "pnpm test").`;
}

/** The parts of jest's global config this teardown reads. */
export interface NoticeConfig {
  readonly rootDir: string;
  readonly testPathPatterns?: { readonly patterns?: readonly string[] };
}

/**
 * Whether the run selected a database suite: every run without path patterns does; a run with patterns does when
 * one of them matches a database suite's path, as jest matches them (case-insensitive, against the absolute path).
 */
export function selectsDatabaseSuites(config: NoticeConfig, suite: RegExp = DATABASE_SUITE): boolean {
  const patterns = config.testPathPatterns?.patterns ?? [];
  if (patterns.length === 0) return true;
  const selected = new RegExp(patterns.join('|'), 'i');
  return databaseSuites(config.rootDir, suite).some((path) => selected.test(path));
}

/** The test files under `test/` and under each package's `test/` whose text matches `suite`. */
function databaseSuites(rootDir: string, suite: RegExp): string[] {
  const dirs = [join(rootDir, 'test'), ...subdirs(join(rootDir, 'packages')).map((dir) => join(dir, 'test'))];
  return dirs.flatMap(testFiles).filter((path) => suite.test(readFileSync(path, 'utf8')));
}

function testFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(dir, entry.name));
  } catch {
    return [];
  }
}

export default function printDatabaseSuitesNotice(config: NoticeConfig): void {
  const notice = databaseSuitesNotice(process.env);
  if (notice && selectsDatabaseSuites(config)) process.stderr.write(`\n${notice}\n`);
  const redis = redisSuitesNotice(process.env);
  if (redis && selectsDatabaseSuites(config, REDIS_SUITE)) process.stderr.write(`\n${redis}\n`);
}
