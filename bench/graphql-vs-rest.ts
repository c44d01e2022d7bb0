/**
 * A page of 20 books with their author, and one book by id with its author, over GraphQL and over REST
 * (`include=author`), from the example app: requests per second at BENCH_CONNECTIONS (default 10) connections,
 * alternating the four for BENCH_ROUNDS rounds of BENCH_DURATION seconds each, after a check that both surfaces answer
 * the same books with the same authors.
 *
 * The app runs in a child process (`examples/nest-typeorm`, SQLite in memory, seeded on start) so the load generator
 * does not share its event loop. Run it on a quiet machine: `pnpm exec ts-node --transpile-only bench/graphql-vs-rest.ts`.
 * Statements per request are pinned by test/e2e/graphql-operations.e2e.test.ts (at most 3 for this page).
 */
import { medianRates, sendOnce, startExample, type BenchScenario } from './example-scenarios';

/** The same fields REST serves for a book and its author, so both answers carry the same data. */
const BOOK = `id title isbn pages rating published featured authorId createdAt updatedAt deletedAt
  author { id name country bornYear createdAt }`;
const QUERY = `{ books(limit: 20) { total limit offset items { ${BOOK} } } }`;
const ROW_QUERY = `{ book(id: 1) { ${BOOK} } }`;

export const SCENARIOS: readonly BenchScenario[] = [
  {
    name: 'REST GET /books?include=author&limit=20',
    method: 'GET',
    path: '/books?include=author&limit=20',
    headers: {},
  },
  {
    name: 'GraphQL POST /graphql books(limit: 20) with author',
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: QUERY }),
  },
  { name: 'REST GET /books/1?include=author', method: 'GET', path: '/books/1?include=author', headers: {} },
  {
    name: 'GraphQL POST /graphql book(id: 1) with author',
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: ROW_QUERY }),
  },
];

/** The books a scenario answers: the page's items, or the one row. */
async function fetchBooks(port: number, scenario: BenchScenario): Promise<unknown[]> {
  const body = (await (await sendOnce(port, scenario)).json()) as {
    items?: unknown[];
    data?: { books?: { items: unknown[] }; book?: unknown };
  };
  if (body.data) return body.data.books?.items ?? [body.data.book];
  return body.items ?? [body];
}

async function main(): Promise<void> {
  const { child, port } = await startExample();
  try {
    const [rest, graphql, restRow, graphqlRow] = await Promise.all(
      SCENARIOS.map((scenario) => fetchBooks(port, scenario)),
    );
    // GraphQL serves keys as ID (text); REST as the column's own kind.
    const same = (value: unknown) =>
      JSON.stringify(value, (key, inner: unknown) => (key === 'id' ? String(inner) : inner));
    if (same(rest) !== same(graphql)) throw new Error('REST and GraphQL answered different pages.');
    if (same(restRow) !== same(graphqlRow)) throw new Error('REST and GraphQL answered different rows.');
    if (rest!.length !== 20) throw new Error(`expected 20 books, got ${rest!.length}`);
    const [restRate, graphqlRate, restRowRate, graphqlRowRate] = (await medianRates(
      port,
      SCENARIOS,
      child.pid,
    )) as number[];
    console.log(`  page, GraphQL / REST: ${(graphqlRate! / restRate!).toFixed(2)}`);
    console.log(`  row by id, GraphQL / REST: ${(graphqlRowRate! / restRowRate!).toFixed(2)}`);
  } finally {
    child.kill('SIGTERM');
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
