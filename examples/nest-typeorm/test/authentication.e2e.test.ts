/**
 * The bookstore's authentication, with real signed tokens on every surface: REST, GraphQL, the agent tools (the MCP
 * SDK's own client) and the event stream (an EventSource, which cannot send headers, passing `access_token`). A valid
 * token reaches the policy as `request.user`; no token is an anonymous reader; a token that is expired, signed with
 * another secret or another algorithm, unsigned, malformed or naming an unknown role is a 401 with a bearer challenge,
 * and nothing is written.
 */
import type { INestApplication } from '@nestjs/common';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { EventSource } from 'eventsource';
import { DataSource } from 'typeorm';
import { Book } from '../src/entities';
import { listenExample } from './example-app';
import { JwtService } from '@nestjs/jwt';
import { jwtOptions } from '../src/access/auth-options';
import { bearer, tokenFor } from './tokens';

jest.setTimeout(60_000);

/** An unsigned token (`alg: none`) claiming to be an editor: what a forger sends. */
function unsignedEditorToken(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub: 'forger', role: 'editor', iat: now, exp: now + 600 })}.`;
}

/** Every token the app must refuse, by what is wrong with it. */
const REFUSED: readonly [string, () => Record<string, string>][] = [
  ['expired', () => bearer('editor', { expiresIn: -60 })],
  ['signed with another secret', () => bearer('editor', { secret: 'not-the-apps-secret' })],
  ['unsigned (alg: none)', () => ({ authorization: `Bearer ${unsignedEditorToken()}` })],
  ['naming an unknown role', () => bearer('owner')],
  [
    'without an expiry',
    () => ({
      authorization: `Bearer ${new JwtService({ ...jwtOptions(), signOptions: { algorithm: 'HS256' } }).sign({ sub: 'x', role: 'editor' })}`,
    }),
  ],
  ['malformed', () => ({ authorization: 'Bearer not.a.token' })],
  ['in another scheme', () => ({ authorization: `Basic ${Buffer.from('editor:pw').toString('base64')}` })],
];

describe('the bookstore authenticates bearer tokens on every surface', () => {
  let app: INestApplication;
  let base: string;
  const books = () => app.get(DataSource).getRepository(Book);
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    ({ app, base } = await listenExample());
  });
  afterAll(() => app?.close());

  describe('REST', () => {
    it('lets anyone read, an editor write, and refuses a reader with 403', async () => {
      expect((await fetch(`${base}/books?limit=1`)).status).toBe(200);
      expect((await post('/tags', { name: 'anonymous' })).status).toBe(403);
      expect((await post('/tags', { name: 'by-a-reader' }, bearer('reader'))).status).toBe(403);
      const created = await post('/tags', { name: 'by-an-editor' }, bearer('editor'));
      expect(created.status).toBe(201);
    });

    it.each(REFUSED)('answers a token %s with 401 and a bearer challenge, writing nothing', async (_what, headers) => {
      const before = await books().count();
      const response = await post('/books', { title: 'Forged', pages: 1 }, headers());
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="bookstore", error="invalid_token"');
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const problem = (await response.json()) as { status: number; code: string; type: string; detail: string };
      expect(problem).toMatchObject({
        status: 401,
        code: 'SVC_HTTP_ERROR',
        type: 'https://svc.dev/errors/svc-http-error',
      });
      expect(problem.detail).toMatch(/bearer token|Authorization header/);
      expect(await books().count()).toBe(before);
      // A refused token is refused for reads too: the client learns its token is bad rather than seeing less.
      expect((await fetch(`${base}/books?limit=1`, { headers: headers() })).status).toBe(401);
    });

    it('says an expired token has expired', async () => {
      const response = await fetch(`${base}/books`, { headers: bearer('editor', { expiresIn: -1 }) });
      expect(((await response.json()) as { detail: string }).detail).toBe(
        'The bearer token has expired. Sign in again.',
      );
    });

    it('does not take a token from the query string outside an event stream', async () => {
      const response = await post(`/tags?access_token=${tokenFor('editor')}`, { name: 'from-the-url' });
      expect(response.status).toBe(403);
      // Not on a GET that asks for an event stream of another route either: an expired token there goes unread.
      const expired = tokenFor('editor', { expiresIn: -60 });
      const graphql = await fetch(
        `${base}/graphql?query=${encodeURIComponent('{ tags { total } }')}&access_token=${expired}`,
        {
          headers: { accept: 'text/event-stream, application/json' },
        },
      );
      expect(graphql.status).not.toBe(401);
    });
  });

  describe('GraphQL', () => {
    const graphql = (query: string, headers: Record<string, string> = {}) =>
      post('/graphql', { query }, { accept: 'application/graphql-response+json', ...headers });

    it("lets an editor's mutation through and refuses a reader's, in the answer's errors", async () => {
      const created = await graphql('mutation { createTag(input: { name: "gql-editor" }) { name } }', bearer('editor'));
      expect(await created.json()).toEqual({ data: { createTag: { name: 'gql-editor' } } });
      const refused = await graphql('mutation { createTag(input: { name: "gql-reader" }) { name } }', bearer('reader'));
      const body = (await refused.json()) as { errors: { extensions: { code: string } }[] };
      expect(body.errors[0]!.extensions.code).toBe('SVC_FORBIDDEN');
    });

    it.each(REFUSED)('answers a token %s with 401 before any field runs', async (_what, headers) => {
      const before = await books().count();
      const response = await graphql('mutation { createBook(input: { title: "Forged" }) { id } }', headers());
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('invalid_token');
      expect(await books().count()).toBe(before);
    });
  });

  describe('the agent tools (MCP)', () => {
    const connect = async (headers: Record<string, string>) => {
      const client = new Client({ name: 'auth-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
      return client;
    };

    it("lists an editor's write tools and lets them write; a reader gets the reads only", async () => {
      const editor = await connect(bearer('editor'));
      const reader = await connect(bearer('reader'));
      try {
        expect((await editor.listTools()).tools.map((tool) => tool.name)).toContain('tag_create_one');
        expect((await reader.listTools()).tools.map((tool) => tool.name)).not.toContain('tag_create_one');
        const written = await editor.callTool({ name: 'tag_create_one', arguments: { data: { name: 'mcp-editor' } } });
        expect(written.isError).toBeFalsy();
        const refused = await reader.callTool({ name: 'tag_create_one', arguments: { data: { name: 'mcp-reader' } } });
        expect(refused).toMatchObject({ isError: true, structuredContent: { code: 'SVC_FORBIDDEN' } });
      } finally {
        await editor.close();
        await reader.close();
      }
    });

    it.each(REFUSED)('refuses to connect with a token %s (HTTP 401)', async (_what, headers) => {
      await expect(connect(headers())).rejects.toThrow(/401|Unauthorized|invalid_token/i);
      const raw = await post(
        '/mcp',
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { accept: 'application/json, text/event-stream', ...headers() },
      );
      expect(raw.status).toBe(401);
    });
  });

  describe('the event stream', () => {
    /** Opens `GET /books/events` as a browser does; resolves with the first `created` event's title, or the error. */
    const firstCreated = (url: string, headers: Record<string, string> = {}) =>
      new Promise<{ title?: string; status?: number }>((resolve) => {
        const source = new EventSource(url, {
          fetch: (input, init) =>
            fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }),
        });
        const done = (result: { title?: string; status?: number }) => {
          source.close();
          resolve(result);
        };
        source.addEventListener('created', (message) =>
          done({ title: (JSON.parse(message.data) as { item: { title: string } }).item.title }),
        );
        source.onerror = (error) => done({ status: (error as { code?: number }).code });
        source.onopen = () => void post('/books', { title: `Streamed ${Date.now()}`, pages: 10 }, bearer('editor'));
      });

    it('opens with the token as access_token (EventSource sends no headers) or as a header', async () => {
      const fromQuery = await firstCreated(`${base}/books/events?access_token=${tokenFor('reader')}`);
      expect(fromQuery.title).toMatch(/^Streamed /);
      const fromHeader = await firstCreated(`${base}/books/events`, bearer('reader'));
      expect(fromHeader.title).toMatch(/^Streamed /);
    });

    it('refuses a stream whose access_token is expired or forged, with 401, before it opens', async () => {
      const expired = await firstCreated(`${base}/books/events?access_token=${tokenFor('reader', { expiresIn: -5 })}`);
      expect(expired.status).toBe(401);
      const forged = await firstCreated(`${base}/books/events?access_token=${unsignedEditorToken()}`);
      expect(forged.status).toBe(401);
      const plain = await fetch(`${base}/books/events?access_token=${tokenFor('reader', { secret: 'other' })}`, {
        headers: { accept: 'text/event-stream' },
      });
      expect(plain.status).toBe(401);
      expect(plain.headers.get('www-authenticate')).toContain('invalid_token');
      // The problem names the request without echoing the token.
      const instance = ((await plain.json()) as { instance: string }).instance;
      expect(instance).toBe('/books/events?access_token=***');
    });
  });
});
