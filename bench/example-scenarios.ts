/**
 * What the surface benchmarks (GraphQL and MCP against REST) share: the example app in a child process (SQLite in
 * memory, or the database of BENCH_EXAMPLE_DATABASE_URL, seeded on start, so the load generator does not share its
 * event loop), and req/s of each scenario at
 * BENCH_CONNECTIONS (default 10) connections, the scenarios alternating for BENCH_ROUNDS rounds of BENCH_DURATION
 * seconds, reported as medians.
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { positiveInt } from './bench-env';
import { cpuMicroseconds } from './process-cpu';

const CONNECTIONS = positiveInt('BENCH_CONNECTIONS', 10);
const DURATION = positiveInt('BENCH_DURATION', 10);
const ROUNDS = positiveInt('BENCH_ROUNDS', 3);

/** One request, sent again and again. */
export interface BenchScenario {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PATCH';
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/**
 * Starts the example app on a free port; resolves once it listens. `root` is the checkout it runs from (this one by
 * default), `databaseUrl` its database (BENCH_EXAMPLE_DATABASE_URL, or SQLite in memory).
 */
export async function startExample(
  root = join(__dirname, '..'),
  databaseUrl = process.env['BENCH_EXAMPLE_DATABASE_URL'] ?? ':memory:',
): Promise<{ child: ChildProcess; port: number }> {
  const example = join(root, 'examples', 'nest-typeorm');
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', 'src/main.ts'],
    {
      cwd: example,
      env: {
        ...process.env,
        PORT: '0',
        DATABASE_URL: databaseUrl,
        TS_NODE_PROJECT: join(example, 'tsconfig.json'),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /localhost:(\d+)\//.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the example exited (${code}) before listening:\n${out}`)));
  });
  return { child, port };
}

/** Sends a scenario once and returns its response, refusing anything but 2xx. */
export async function sendOnce(port: number, scenario: BenchScenario): Promise<Response> {
  const response = await fetch(`http://127.0.0.1:${port}${scenario.path}`, {
    method: scenario.method,
    headers: scenario.headers,
    body: scenario.body,
  });
  if (!response.ok) throw new Error(`${scenario.name} answered ${response.status}: ${await response.text()}`);
  return response;
}

/**
 * The median req/s of each scenario, in order, after printing them with the medians of each round's p50 and p99
 * latency (ms) and, given the app's `pid` on Linux, of its CPU time per request (µs).
 */
export async function medianRates(port: number, scenarios: readonly BenchScenario[], pid?: number): Promise<number[]> {
  const rounds = scenarios.map(() => [] as Round[]);
  const cpu = scenarios.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, scenario] of scenarios.entries()) {
      const before = pid === undefined ? Number.NaN : cpuMicroseconds(pid);
      const result = await loadRound(port, scenario);
      rounds[index]!.push(result);
      cpu[index]!.push(pid === undefined ? Number.NaN : (cpuMicroseconds(pid) - before) / result.total);
    }
  }
  const medians = rounds.map((each) => median(each.map((round) => round.rate)));
  console.log(`${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s, median req/s (p50 and p99 ms):`);
  scenarios.forEach((scenario, index) => {
    const [p50, p99] = [median(rounds[index]!.map((r) => r.p50)), median(rounds[index]!.map((r) => r.p99))];
    const cpuPerRequest = median(cpu[index]!);
    const cpuText = Number.isNaN(cpuPerRequest) ? '' : `, CPU ${cpuPerRequest.toFixed(0)} µs/req`;
    console.log(`  ${scenario.name}: ${medians[index]!.toFixed(0)} (p50 ${p50} ms, p99 ${p99} ms${cpuText})`);
  });
  return medians;
}

/** The middle value (the upper of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

/** One round of a scenario: its req/s, how many requests it served, and its p50 and p99 latency in ms. */
export interface Round {
  readonly rate: number;
  readonly total: number;
  readonly p50: number;
  readonly p99: number;
}

/** Runs one round of a scenario. */
export async function loadRound(port: number, scenario: BenchScenario): Promise<Round> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [{ method: scenario.method, path: scenario.path, headers: scenario.headers, body: scenario.body }],
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${scenario.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    rate: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}
