/**
 * The agent tools against REST, from the example app: `book_find_many` (a page of 20) and `book_patch_one` as MCP
 * tool calls (protocol revision 2026-07-28, one stateless POST each) against `GET /books?limit=20` and
 * `PATCH /books/:id`. Requests per second at BENCH_CONNECTIONS (default 10) connections, the four alternating for
 * BENCH_ROUNDS rounds of BENCH_DURATION seconds, after a check that the tool and the route answer the same page.
 *
 * The app runs in a child process (`examples/nest-typeorm`, SQLite in memory, seeded on start) so the load generator
 * does not share its event loop. Run it on a quiet machine: `pnpm exec ts-node --transpile-only bench/mcp-vs-rest.ts`.
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { positiveInt } from './bench-env';

const CONNECTIONS = positiveInt('BENCH_CONNECTIONS', 10);
const DURATION = positiveInt('BENCH_DURATION', 10);
const ROUNDS = positiveInt('BENCH_ROUNDS', 3);
const EXAMPLE = join(__dirname, '..', 'examples', 'nest-typeorm');
const EDITOR = { 'x-role': 'editor' };

/** What a 2026-07-28 client puts in every request: the revision, who it is, what it can do. */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'svc-bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
};

function toolCall(name: string, args: Record<string, unknown>): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: args, _meta: ENVELOPE },
  });
}

interface Scenario {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PATCH';
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

const SCENARIOS: readonly Scenario[] = [
  { name: 'REST GET /books?limit=20', method: 'GET', path: '/books?limit=20', headers: {} },
  {
    name: 'MCP book_find_many { limit: 20 }',
    method: 'POST',
    path: '/mcp',
    headers: { ...MCP_HEADERS, 'mcp-name': 'book_find_many' },
    body: toolCall('book_find_many', { limit: 20 }),
  },
  {
    name: 'REST PATCH /books/1',
    method: 'PATCH',
    path: '/books/1',
    headers: { ...EDITOR, 'content-type': 'application/json' },
    body: JSON.stringify({ rating: 4.2 }),
  },
  {
    name: 'MCP book_patch_one { id: 1 }',
    method: 'POST',
    path: '/mcp',
    headers: { ...MCP_HEADERS, 'mcp-name': 'book_patch_one', ...EDITOR },
    body: toolCall('book_patch_one', { id: 1, data: { rating: 4.2 } }),
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

/** The JSON a scenario answers: the REST body, or the tool result's structured content (a failed call throws). */
async function answer(port: number, scenario: Scenario): Promise<unknown> {
  const response = await fetch(`http://127.0.0.1:${port}${scenario.path}`, {
    method: scenario.method,
    headers: scenario.headers,
    body: scenario.body,
  });
  if (!response.ok) throw new Error(`${scenario.name} answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { result?: { isError?: boolean; structuredContent?: unknown } };
  if (scenario.path !== '/mcp') return body;
  if (!body.result || body.result.isError) throw new Error(`${scenario.name} failed: ${JSON.stringify(body)}`);
  return body.result.structuredContent;
}

async function load(port: number, scenario: Scenario): Promise<number> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [{ method: scenario.method, path: scenario.path, headers: scenario.headers, body: scenario.body }],
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${scenario.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

async function main(): Promise<void> {
  const { child, port } = await startExample();
  try {
    const [restPage, toolPage, restPatch, toolPatch] = await Promise.all(
      SCENARIOS.map((scenario) => answer(port, scenario)),
    );
    if (JSON.stringify(restPage) !== JSON.stringify(toolPage))
      throw new Error('REST and the tool answered different pages.');
    const { updatedAt: _a, ...rest } = restPatch as Record<string, unknown>;
    const { updatedAt: _b, ...tool } = toolPatch as Record<string, unknown>;
    if (JSON.stringify(rest) !== JSON.stringify(tool)) throw new Error('REST and the tool patched differently.');
    const rates = SCENARIOS.map(() => [] as number[]);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, scenario] of SCENARIOS.entries()) rates[index]!.push(await load(port, scenario));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const [restList, toolList, restWrite, toolWrite] = rates.map(median) as [number, number, number, number];
    console.log(`${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s, median req/s:`);
    SCENARIOS.forEach((scenario, index) => console.log(`  ${scenario.name}: ${median(rates[index]!).toFixed(0)}`));
    console.log(`  find_many, MCP / REST: ${(toolList / restList).toFixed(2)}`);
    console.log(`  patch_one, MCP / REST: ${(toolWrite / restWrite).toFixed(2)}`);
  } finally {
    child.kill('SIGTERM');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
