/**
 * The agent tools against REST, from the example app: `book_find_many` (a page of 20) and `book_patch_one` as MCP
 * tool calls (protocol revision 2026-07-28, one stateless POST each) against `GET /books?limit=20` and
 * `PATCH /books/:id`. Requests per second at BENCH_CONNECTIONS (default 10) connections, the four alternating for
 * BENCH_ROUNDS rounds of BENCH_DURATION seconds, after a check that the tool and the route answer the same page.
 *
 * The app runs in a child process (`examples/nest-typeorm`, SQLite in memory, seeded on start) so the load generator
 * does not share its event loop. Run it on a quiet machine: `pnpm exec ts-node --transpile-only bench/mcp-vs-rest.ts`.
 */
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { JwtService } from '@nestjs/jwt';
import { jwtOptions } from '../examples/nest-typeorm/src/access/auth-options';
import { medianRates, sendOnce, startExample, type BenchScenario } from './example-scenarios';

/** An editor's bearer token, signed as the example checks them (its JWT_SECRET, or the development secret). */
const EDITOR = { authorization: `Bearer ${new JwtService(jwtOptions()).sign({ sub: 'bench', role: 'editor' })}` };

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

export const SCENARIOS: readonly BenchScenario[] = [
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

/** The JSON a scenario answers: the REST body, or the tool result's structured content (a failed call throws). */
async function answer(port: number, scenario: BenchScenario): Promise<unknown> {
  const body = (await (await sendOnce(port, scenario)).json()) as {
    result?: { isError?: boolean; structuredContent?: unknown };
  };
  if (scenario.path !== '/mcp') return body;
  if (!body.result || body.result.isError) throw new Error(`${scenario.name} failed: ${JSON.stringify(body)}`);
  return body.result.structuredContent;
}

async function main(): Promise<void> {
  const { child, port } = await startExample();
  try {
    const [restPage, toolPage, restPatch, toolPatch] = await Promise.all(
      SCENARIOS.map((scenario) => answer(port, scenario)),
    );
    // The tool's page says besides whether more rows follow, and where: the rest is the REST page.
    const { hasMore: _more, nextOffset: _next, ...toolRows } = toolPage as Record<string, unknown>;
    if (JSON.stringify(restPage) !== JSON.stringify(toolRows))
      throw new Error('REST and the tool answered different pages.');
    const { updatedAt: _a, ...rest } = restPatch as Record<string, unknown>;
    const { updatedAt: _b, ...tool } = toolPatch as Record<string, unknown>;
    if (JSON.stringify(rest) !== JSON.stringify(tool)) throw new Error('REST and the tool patched differently.');
    const [restList, toolList, restWrite, toolWrite] = (await medianRates(port, SCENARIOS, child.pid)) as [
      number,
      number,
      number,
      number,
    ];
    console.log(`  find_many, MCP / REST: ${(toolList / restList).toFixed(2)}`);
    console.log(`  patch_one, MCP / REST: ${(toolWrite / restWrite).toFixed(2)}`);
    const floor = await sdkFloorMicroseconds(toolPage);
    console.log(
      `  the SDK's own handler, per call of a tool answering that page at once (this process, no HTTP): ${floor.toFixed(0)} us;` +
        ` REST serves a find_many every ${(1e6 / restList).toFixed(0)} us (1 / its req/s), so MCP / REST is at most` +
        ` ${(1e6 / restList / (1e6 / restList + floor)).toFixed(2)} while each call goes through it`,
    );
  } finally {
    child.kill('SIGTERM');
  }
}

/**
 * What the official SDK's stateless HTTP handler costs per call by itself: a fresh server and transport per request
 * (as the SDK requires), the request classified and validated, the result encoded, with a tool that answers `page` at
 * once. Measured in this process, sequentially, after a warm-up.
 */
async function sdkFloorMicroseconds(page: unknown): Promise<number> {
  const text = JSON.stringify(page);
  const handler = createMcpHandler(
    () => {
      const server = new Server({ name: 'floor', version: '1.0.0' }, { capabilities: { tools: {} } });
      // As Svc's tools answer since 2026-11-29: the value itself as structured content, beside its text.
      server.setRequestHandler('tools/call', async () => ({
        content: [{ type: 'text', text }],
        structuredContent: page as Record<string, unknown>,
      }));
      return server;
    },
    { legacy: 'stateless' },
  );
  const scenario = SCENARIOS[1]!;
  const body = JSON.parse(scenario.body!) as unknown;
  const call = async () => {
    const request = new Request('http://localhost/mcp', { method: 'POST', headers: scenario.headers });
    await (await handler.fetch(request, { parsedBody: body })).arrayBuffer();
  };
  for (let i = 0; i < 2_000; i++) await call();
  const calls = 10_000;
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await call();
  await handler.close();
  return Number(process.hrtime.bigint() - started) / calls / 1_000;
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
