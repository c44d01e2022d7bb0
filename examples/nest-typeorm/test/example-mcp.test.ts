/**
 * The bookstore's agent tools as a user connects to them: over Streamable HTTP at /mcp of the running app (the
 * bearer token reaching the policy), and over stdio from the `mcp:stdio` script launched as an MCP host launches it.
 */
import type { INestApplication } from '@nestjs/common';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listenExample } from './example-app';
import { bearer } from './tokens';

jest.setTimeout(60_000);

interface Result {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Result> {
  return (await client.callTool({ name, arguments: args })) as Result;
}

describe('examples/nest-typeorm agent tools', () => {
  describe('over Streamable HTTP at /mcp', () => {
    let app: INestApplication;
    let url: URL;
    beforeAll(async () => {
      const example = await listenExample();
      app = example.app;
      url = new URL(`${example.base}/mcp`);
    });
    afterAll(() => app?.close());

    it('serves the bookstore tools, leaving out the cursor-paged reviews', async () => {
      const client = new Client({ name: 'example-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(url));
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['book_find_many', 'author_find_one', 'svc_describe']));
      expect(names.some((name) => name.startsWith('review_'))).toBe(false);
      // A reader is listed the reads only; the write tools still answer, with the refusal.
      expect(names.some((name) => /_(create|update|patch|delete)_one$/.test(name))).toBe(false);
      const page = await call(client, 'book_find_many', {
        filter: { pages: { gte: 300 } },
        sort: ['-pages'],
        limit: 3,
      });
      expect(page.structuredContent).toMatchObject({ limit: 3, items: expect.any(Array) });
      const refused = await call(client, 'book_patch_one', { id: 1, data: { rating: 5 } });
      expect(refused).toMatchObject({ isError: true, structuredContent: { code: 'SVC_FORBIDDEN' } });
      await client.close();
    });

    it("lets an editor write: the guard's request.user reaches the policy", async () => {
      const client = new Client({ name: 'example-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: bearer('editor') } }));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['tag_create_one', 'book_patch_one']),
      );
      const patched = await call(client, 'book_patch_one', { id: 1, data: { rating: 4.5 } });
      expect(patched.structuredContent).toMatchObject({ id: 1, rating: 4.5 });
      await client.close();
    });
  });

  describe('over stdio (pnpm mcp:stdio)', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'svc-example-mcp-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('starts over the bookstore database and answers as the role the host names', async () => {
      const client = new Client({ name: 'example-test', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', 'src/mcp-stdio.ts'],
          cwd: join(__dirname, '..'),
          env: {
            ...(process.env as Record<string, string>),
            DATABASE_URL: `sqlite:${join(dir, 'bookstore.db')}`,
            BOOKSTORE_ROLE: 'reader',
          },
          stderr: 'pipe',
        }),
      );
      const described = (await call(client, 'svc_describe', {})).structuredContent as {
        entities: { name: string; tools: Record<string, string> }[];
      };
      expect(described.entities.map((entity) => entity.name).sort()).toEqual(['Author', 'Book', 'Tag']);
      expect(Object.keys(described.entities.find((entity) => entity.name === 'Book')!.tools)).toEqual([
        'findMany',
        'aggregate',
        'findOne',
      ]);
      const books = await call(client, 'book_find_many', { limit: 1 });
      expect(books.structuredContent).toMatchObject({ total: 30 });
      await client.close();
    });
  });
});
