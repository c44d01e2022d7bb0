/**
 * How the agent tools are served in Nest: stateless Streamable HTTP (GET and DELETE answer 405), the DNS-rebinding
 * guard on Host and Origin with its allowlist options, the path option, the global operations map, and the
 * entities the binding cannot page, refused at bootstrap naming the entity or left out by `exclude`.
 */
import { ConfigurationException } from '@svc/core';
import { svcController, TEST_PLATFORM } from '../support/create-test-app';
import { Author, Book, Note, Review, Tag } from '../fixtures/bookstore-entities';
import { startMcpApp, type McpApp } from './support/mcp-app';
import { connectMcp } from './support/mcp-clients';

const ENTITIES = [Author, Tag, Book, Review, Note];
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

function post(url: string, headers: Record<string, string> = {}, body: unknown = INITIALIZE): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

describe('MCP serving over Streamable HTTP', () => {
  let app: McpApp;
  beforeAll(async () => {
    app = await startMcpApp({
      db: { name: 'sqlite' },
      suite: 'e2e_mcp_serving',
      entities: ENTITIES,
      controllers: [svcController('books', Book)],
    });
  });
  afterAll(() => app?.close());

  it('answers an initialize POST', async () => {
    const response = await post(app.url);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"protocolVersion":"2025-11-25"');
  });

  it('answers GET and DELETE with 405: a stateless server offers no stream and holds no session', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(app.url, { method, headers: { accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
    }
  });

  it('answers a body no parser read with 413 past 100 kB, without reading the rest', async () => {
    // Express parses JSON only; a text/plain body reaches the MCP bridge unread.
    const big = await fetch(app.url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
      body: 'x'.repeat(20 * 1024 * 1024),
    });
    expect(big.status).toBe(413);
    // Fastify holds its own body limit before the route runs; on Express the bridge answers, as JSON-RPC.
    if (TEST_PLATFORM !== 'fastify') {
      expect(await big.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    }
    // A streamed body with no declared length is stopped as it passes the limit.
    const chunks = (async function* () {
      for (let i = 0; i < 400; i++) yield new Uint8Array(64 * 1024).fill(120);
    })();
    const streamed = await fetch(app.url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
      body: ReadableStream.from(chunks),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    // Under the limit, an unparsed body is still read and served.
    const small = await fetch(app.url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(INITIALIZE),
    });
    expect(small.status).not.toBe(413);
  });

  it('refuses a JSON-RPC batch, which the protocol revisions served do not have (the SDK answers it)', async () => {
    const call = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'book_find_many', arguments: {} },
    });
    const batch = await post(app.url, { 'mcp-protocol-version': '2025-11-25' }, [INITIALIZE, call(2), call(3)]);
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    const calls = await post(app.url, { 'mcp-protocol-version': '2025-11-25' }, [call(4), call(5)]);
    expect(calls.status).toBe(400);
    const empty = await post(app.url, {}, []);
    expect(empty.status).toBe(400);
  });

  describe('the DNS-rebinding guard', () => {
    it('refuses a Host outside the allowlist with 403, before any work', async () => {
      const { request } = await import('node:http');
      const status = await new Promise<number>((resolve, reject) => {
        const url = new URL(app.url);
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            headers: {
              host: 'evil.example',
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
            },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify(INITIALIZE));
      });
      expect(status).toBe(403);
    });

    it('refuses a browser Origin outside the allowlist with 403', async () => {
      const response = await post(app.url, { origin: 'http://evil.example' });
      expect(response.status).toBe(403);
      expect(await response.text()).toContain('Invalid Origin');
    });

    it('lets a local Origin and a request without Origin through', async () => {
      expect((await post(app.url, { origin: 'http://localhost:5173' })).status).toBe(200);
      expect((await post(app.url)).status).toBe(200);
    });
  });

  it('refuses the v1 and v2 clients nothing: both connect to the default path', async () => {
    for (const kind of ['v1 client', 'v2 client, 2026-07-28'] as const) {
      const client = await connectMcp(kind, { url: app.url });
      expect((await client.listTools()).length).toBeGreaterThan(0);
      await client.close();
    }
  });
});

describe('MCP switch options', () => {
  let app: McpApp;
  beforeAll(async () => {
    app = await startMcpApp({
      db: { name: 'sqlite' },
      suite: 'e2e_mcp_options',
      entities: ENTITIES,
      controllers: [svcController('books', Book), svcController('notes', Note)],
      svc: { operations: { deleteOne: false } },
      mcp: {
        path: 'agents/tools',
        name: 'bookstore',
        version: '2.0.0',
        allowedHosts: ['127.0.0.1', 'books.example'],
        allowedOrigins: ['app.books.example'],
        exclude: ['Note'],
      },
    });
  });
  afterAll(() => app?.close());

  it('serves at the path, with the name and version given', async () => {
    expect(app.url).toMatch(/\/agents\/tools$/);
    const body = await (await post(app.url)).text();
    expect(body).toContain('"name":"bookstore"');
    expect(body).toContain('"version":"2.0.0"');
  });

  it('takes the allowlists given instead of the local defaults', async () => {
    expect((await post(app.url, { origin: 'https://app.books.example' })).status).toBe(200);
    expect((await post(app.url, { origin: 'http://localhost' })).status).toBe(403);
  });

  it('leaves out excluded entities and operations the global operations map disables', async () => {
    const client = await connectMcp('v1 client', { url: app.url });
    const names = (await client.listTools()).map((tool) => tool.name);
    expect(names.some((name) => name.startsWith('note_'))).toBe(false);
    expect(names).not.toContain('book_delete_one');
    expect(names).toContain('book_patch_one');
    await client.close();
  });
});

describe('MCP bootstrap refusals', () => {
  async function bootError(options: Parameters<typeof startMcpApp>[0]): Promise<unknown> {
    return startMcpApp(options).then(
      async (booted) => {
        await booted.close();
        return undefined;
      },
      (error: unknown) => error,
    );
  }

  it('refuses an entity paged by cursor, naming it and the way out', async () => {
    const error = await bootError({
      db: { name: 'sqlite' },
      suite: 'e2e_mcp_cursor',
      entities: ENTITIES,
      controllers: [svcController('books', Book, { pagination: { strategy: 'cursor' } })],
    });
    expect(error).toBeInstanceOf(ConfigurationException);
    expect((error as Error).message).toMatch(/^Book: pagination\.strategy: 'cursor' cannot be served as an MCP tool/);
    expect((error as Error).message).toContain("exclude: ['Book']");
  });

  it('refuses an entity paged by since', async () => {
    const error = await bootError({
      db: { name: 'sqlite' },
      suite: 'e2e_mcp_since',
      entities: ENTITIES,
      controllers: [svcController('books', Book, { pagination: { strategy: 'since' } })],
    });
    expect((error as Error).message).toMatch(/^Book: .*'since' cannot be served/);
  });

  it('serves the others when the cursor entity is excluded', async () => {
    const app = await startMcpApp({
      db: { name: 'sqlite' },
      suite: 'e2e_mcp_excluded',
      entities: ENTITIES,
      controllers: [svcController('books', Book, { pagination: { strategy: 'cursor' } }), svcController('notes', Note)],
      mcp: { exclude: ['Book'] },
    });
    const client = await connectMcp('v2 client, 2026-07-28', { url: app.url });
    expect((await client.listTools()).map((tool) => tool.name)).toContain('note_find_many');
    await client.close();
    await app.close();
  });

  it('refuses an exclude that names no entity', async () => {
    const error = await bootError({
      db: { name: 'sqlite' },
      suite: 'e2e_mcp_bad_exclude',
      entities: ENTITIES,
      controllers: [svcController('books', Book)],
      mcp: { exclude: ['Bok'] },
    });
    expect((error as Error).message).toContain("names 'Bok', which no service serves");
  });
});
