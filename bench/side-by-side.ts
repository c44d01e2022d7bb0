/**
 * A change measured against the code before it, on the surface benches' scenarios: the example app of this checkout
 * and of BENCH_BASE (a git revision, checked out in a temporary worktree that shares this checkout's node_modules) run
 * at once, and every round runs each scenario on one app, then on the other. Two apps measured in the same minutes
 * see the same machine, which one app measured before and one after do not: on a shared machine the rate of one
 * scenario moves by a fifth from one run to the next.
 *
 * For each app: the median req/s of each scenario, the ratio of the second scenario to the first (GraphQL or MCP to
 * REST), and the app's CPU time per request (user and system, read from /proc on Linux), which moves less with the
 * machine's other load than a rate does.
 *
 *   BENCH_BASE=1899461 BENCH_SURFACE=graphql pnpm exec ts-node --transpile-only bench/side-by-side.ts
 *
 * BENCH_SURFACE: `graphql` (a page of 20 with author, GraphQL against REST) or `mcp` (`find_many` against REST).
 * BENCH_EXAMPLE_DATABASE_URL and BENCH_EXAMPLE_DATABASE_URL_BASE: the two apps' databases (each seeds its own; SQLite
 * in memory when unset). BENCH_ROUNDS (default 3), BENCH_DURATION (default 10), BENCH_CONNECTIONS (default 10).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { positiveInt } from './bench-env';
import { loadRound, median, sendOnce, startExample, type BenchScenario } from './example-scenarios';
import { cpuMicroseconds } from './process-cpu';

const ROOT = join(__dirname, '..');
const ROUNDS = positiveInt('BENCH_ROUNDS', 3);

interface App {
  readonly name: string;
  readonly port: number;
  readonly pid: number;
  readonly rates: number[][];
  readonly p99: number[][];
  readonly cpu: number[][];
}

async function scenariosOf(surface: string | undefined): Promise<readonly BenchScenario[]> {
  // The page scenarios of each surface bench: REST first, then the same page over the other surface.
  if (surface === 'graphql') return (await import('./graphql-vs-rest')).SCENARIOS.slice(0, 2);
  if (surface === 'mcp') return (await import('./mcp-vs-rest')).SCENARIOS.slice(0, 2);
  throw new Error(`BENCH_SURFACE must be graphql or mcp, not ${String(surface)}.`);
}

/** A worktree of `revision` beside this checkout, using its installed node_modules. */
function worktreeOf(revision: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'svc-base-')), 'tree');
  execFileSync('git', ['worktree', 'add', '--detach', dir, revision], { cwd: ROOT, stdio: 'ignore' });
  const installed = [
    '.',
    'examples/nest-typeorm',
    ...readdirSync(join(ROOT, 'packages')).map((name) => `packages/${name}`),
  ];
  for (const folder of installed) {
    const modules = join(ROOT, folder, 'node_modules');
    if (existsSync(modules) && existsSync(join(dir, folder))) symlinkSync(modules, join(dir, folder, 'node_modules'));
  }
  return dir;
}

async function main(): Promise<void> {
  const base = process.env['BENCH_BASE'];
  if (!base) throw new Error('Set BENCH_BASE to the git revision to compare with.');
  const scenarios = await scenariosOf(process.env['BENCH_SURFACE']);
  const tree = worktreeOf(base);
  const children: { kill(signal: NodeJS.Signals): boolean }[] = [];
  try {
    const apps: App[] = [];
    for (const [name, root, database] of [
      [base, tree, process.env['BENCH_EXAMPLE_DATABASE_URL_BASE']],
      ['this checkout', ROOT, process.env['BENCH_EXAMPLE_DATABASE_URL']],
    ] as const) {
      const { child, port } = await startExample(root, database ?? ':memory:');
      children.push(child);
      for (const scenario of scenarios) await sendOnce(port, scenario);
      apps.push({
        name,
        port,
        pid: child.pid!,
        rates: scenarios.map(() => []),
        p99: scenarios.map(() => []),
        cpu: scenarios.map(() => []),
      });
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, scenario] of scenarios.entries()) {
        for (const app of apps) {
          const before = cpuMicroseconds(app.pid);
          const { rate, total, p99 } = await loadRound(app.port, scenario);
          app.rates[index]!.push(rate);
          app.p99[index]!.push(p99);
          app.cpu[index]!.push((cpuMicroseconds(app.pid) - before) / total);
        }
      }
    }
    console.log(`${ROUNDS} rounds, median req/s, p99 ms and CPU µs per request:`);
    for (const app of apps) {
      const rates = app.rates.map(median);
      const cpu = app.cpu.map(median);
      const p99 = app.p99.map(median);
      const each = scenarios.map(
        (scenario, index) =>
          `${scenario.name} ${rates[index]!.toFixed(0)} req/s, p99 ${p99[index]} ms, ${cpu[index]!.toFixed(0)} µs`,
      );
      const rounds = app.rates[1]!.map((rate, round) => (rate / app.rates[0]![round]!).toFixed(2)).join(', ');
      console.log(`  ${app.name}: ${each.join('; ')}; ratio ${(rates[1]! / rates[0]!).toFixed(2)} (rounds: ${rounds})`);
    }
  } finally {
    for (const child of children) child.kill('SIGTERM');
    execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: ROOT, stdio: 'ignore' });
    rmSync(join(tree, '..'), { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
