/**
 * SvcMcpHttpHandler without Nest: served from a plain `node:http` server through serveNodeRequest, with the context a
 * host builds per request, checked with the SDK's v2 and v1 clients. Over core's in-memory adapter.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSvc, type Row } from '@svc/core';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createMcpServer, serveNodeRequest, SvcMcpHttpHandler } from '@svc/mcp';
import { MemoryRepositoryAdapter } from '../../core/test/support/memory-adapter';
import { BOOK_METADATA } from '../../core/test/support/fixtures';
import { connectMcp, MCP_CLIENT_KINDS } from '../../../test/e2e/support/mcp-clients';

const BOOKS: Row[] = [
  { id: 1, title: 'One', pages: 10, published: false, status: 'draft', tenant: 't1' },
  { id: 2, title: 'Two', pages: 20, published: false, status: 'draft', tenant: 't2' },
];

describe('SvcMcpHttpHandler on node:http', () => {
  let server: Server;
  let url: string;
  let handler: SvcMcpHttpHandler;

  beforeAll(async () => {
    const svc = createSvc({});
    svc.createCrud(
      BOOK_METADATA.target,
      { filter: { apply: ({ context }) => ({ tenant: { eq: context['tenant'] } }) } },
      { adapter: new MemoryRepositoryAdapter(BOOK_METADATA, BOOKS) },
    );
    handler = new SvcMcpHttpHandler({ svc, name: 'plain' });
    // The host decides who is calling; here a header stands in for authentication.
    server = createServer((req, res) => {
      void serveNodeRequest(handler, req, res, { context: { tenant: req.headers['x-tenant'] } });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await handler.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it.each(MCP_CLIENT_KINDS)('serves the %s with the context the host built for each request', async (kind) => {
    const t1 = await connectMcp(kind, { url, headers: { 'x-tenant': 't1' } });
    const t2 = await connectMcp(kind, { url, headers: { 'x-tenant': 't2' } });
    const titles = async (client: typeof t1) =>
      ((await client.callTool('book_find_many', {})).structuredContent!['items'] as { title: string }[]).map(
        (book) => book.title,
      );
    expect(await titles(t1)).toEqual(['One']);
    expect(await titles(t2)).toEqual(['Two']);
    await t1.close();
    await t2.close();
  });

  it('refuses a Host outside the allowlist and a foreign Origin with 403', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: '{}',
    });
    expect(response.status).toBe(403);
    const direct = await handler.handle(
      new Request('http://evil.example/', { method: 'POST', headers: { host: 'evil.example' } }),
      {
        context: {},
      },
    );
    expect(direct.status).toBe(403);
  });

  it('reads a body no parser read, and answers a body that is not JSON as the protocol says', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: 'not json',
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('"jsonrpc"');
  });

  it('serves a request whose caller it cannot tell no tool: the list is empty and a call is refused', async () => {
    const unknown = createMcpHandler(() => createMcpServer(handler.toolset, {}, undefined), { legacy: 'stateless' });
    const send = async (method: string, params: { name?: string; arguments?: Record<string, unknown> }) => {
      const body = { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: ENVELOPE } };
      const named: Record<string, string> = params.name === undefined ? {} : { 'mcp-name': params.name };
      const request = new Request('http://localhost/', {
        method: 'POST',
        headers: { ...MODERN_HEADERS, 'mcp-method': method, ...named },
      });
      return (await (await unknown.fetch(request, { parsedBody: body })).json()) as Record<string, unknown>;
    };
    expect(await send('tools/list', {})).toMatchObject({ result: { tools: [] } });
    const called = await send('tools/call', { name: 'book_find_many', arguments: {} });
    expect(called).toMatchObject({ error: { message: expect.stringContaining('caller of this request is unknown') } });
    await unknown.close();
  });
});

/** What a 2026-07-28 client sends with each request. */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const MODERN_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
};
