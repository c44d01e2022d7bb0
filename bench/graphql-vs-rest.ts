/**
 * A page of 20 books with their author, over GraphQL and over REST (`include=author`), from the example app: requests
 * per second at BENCH_CONNECTIONS (default 10) connections, alternating the two for BENCH_ROUNDS rounds of
 * BENCH_DURATION seconds each, after a check that both answer the same 20 books with the same authors.
 *
 * The app runs in a child process (`examples/nest-typeorm`, SQLite in memory, seeded on start) so the load generator
 * does not share its event loop. Run it on a quiet machine: `pnpm exec ts-node --transpile-only bench/graphql-vs-rest.ts`.
 * Statements per request are pinned by test/e2e/graphql-operations.e2e.test.ts (at most 3 for this page).
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { positiveInt } from './bench-env';

const CONNECTIONS = positiveInt('BENCH_CONNECTIONS', 10);
const DURATION = positiveInt('BENCH_DURATION', 10);
const ROUNDS = positiveInt('BENCH_ROUNDS', 3);
const EXAMPLE = join(__dirname, '..', 'examples', 'nest-typeorm');

/** The same fields REST serves for a book and its author, so both answers carry the same data. */
const QUERY = `{ books(limit: 20) { total limit offset items {
  id title isbn pages rating published authorId createdAt updatedAt deletedAt
  author { id name country bornYear createdAt } } } }`;

interface Scenario {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
}

const SCENARIOS: readonly Scenario[] = [
  { name: 'REST GET /books?include=author&limit=20', method: 'GET', path: '/books?include=author&limit=20' },
  {
    name: 'GraphQL POST /graphql books(limit: 20) with author',
    method: 'POST',
    path: '/graphql',
    body: JSON.stringify({ query: QUERY }),
  },
];

async function startExample(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', 'src/main.ts'],
    {
      cwd: EXAMPLE,
      env: { ...process.env, PORT: '0', DATABASE_URL: ':memory:', TS_NODE_PROJECT: join(EXAMPLE, 'tsconfig.json') },
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

async function fetchBooks(port: number, scenario: Scenario): Promise<unknown[]> {
  const response = await fetch(`http://127.0.0.1:${port}${scenario.path}`, {
    method: scenario.method,
    headers: scenario.body ? { 'content-type': 'application/json' } : {},
    body: scenario.body,
  });
  if (!response.ok) throw new Error(`${scenario.name} answered ${response.status}`);
  const body = (await response.json()) as { items?: unknown[]; data?: { books: { items: unknown[] } } };
  return body.items ?? body.data!.books.items;
}

async function load(port: number, scenario: Scenario): Promise<number> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [
      {
        method: scenario.method,
        path: scenario.path,
        ...(scenario.body ? { body: scenario.body, headers: { 'content-type': 'application/json' } } : {}),
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${scenario.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

async function main(): Promise<void> {
  const { child, port } = await startExample();
  try {
    const [rest, graphql] = await Promise.all(SCENARIOS.map((scenario) => fetchBooks(port, scenario)));
    // GraphQL serves keys as ID (text); REST as the column's own kind.
    const same = (value: unknown) =>
      JSON.stringify(value, (key, inner: unknown) => (key === 'id' ? String(inner) : inner));
    if (same(rest) !== same(graphql)) throw new Error('REST and GraphQL answered different pages.');
    if (rest!.length !== 20) throw new Error(`expected 20 books, got ${rest!.length}`);
    const rates = SCENARIOS.map(() => [] as number[]);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, scenario] of SCENARIOS.entries()) rates[index]!.push(await load(port, scenario));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const [restRate, graphqlRate] = rates.map(median) as [number, number];
    console.log(`${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s, median req/s:`);
    SCENARIOS.forEach((scenario, index) => console.log(`  ${scenario.name}: ${median(rates[index]!).toFixed(0)}`));
    console.log(`  GraphQL / REST: ${(graphqlRate / restRate).toFixed(2)}`);
  } finally {
    child.kill('SIGTERM');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
