/**
 * serveMcpStdio: the agent tools over stdio in a child process, as an agent host launches them, checked with the
 * v2 client (both protocol revisions) and the v1 client on every test database: list, describe, call every kind of
 * tool, bad arguments as tool errors, and the host's context reaching policy and `filter.apply`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { testDataSourceOptions, TEST_DATABASES } from '../../../test/support/test-databases';
import { MCP_ENTITIES } from '../../../test/e2e/support/mcp-fixtures';
import {
  connectMcp,
  MCP_CLIENT_KINDS,
  type McpTestClient,
  type ToolCallResult,
} from '../../../test/e2e/support/mcp-clients';

// Each child compiles the app with ts-node first, which takes seconds on a busy machine.
jest.setTimeout(60_000);

const ROOT = join(__dirname, '..', '..', '..');
const SERVER = join(__dirname, 'support', 'stdio-server.ts');

function ok(result: ToolCallResult): Record<string, unknown> {
  if (result.isError) throw new Error(`the call failed: ${JSON.stringify(result.structuredContent)}`);
  expect(JSON.parse(result.content[0]!.text!)).toEqual(result.structuredContent);
  return result.structuredContent!;
}

function problem(result: ToolCallResult): { code: string; errors?: { param?: string; field?: string }[] } {
  expect(result.isError).toBe(true);
  return result.structuredContent as never;
}

describe.each(TEST_DATABASES)('serveMcpStdio on $name', (db) => {
  let options: Record<string, unknown>;
  let dir: string | undefined;

  beforeAll(async () => {
    const made = (await testDataSourceOptions(db, 'mcp_stdio', MCP_ENTITIES)) as unknown as Record<string, unknown>;
    if (db.name === 'sqlite') {
      dir = mkdtempSync(join(tmpdir(), 'svc-mcp-stdio-'));
      made['database'] = join(dir, 'stdio.db');
    }
    const dataSource = await new DataSource(made as unknown as DataSourceOptions).initialize();
    await dataSource.destroy();
    const { entities: _entities, ...plain } = made;
    options = plain;
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const launch = (kind: (typeof MCP_CLIENT_KINDS)[number], user: Record<string, string>): Promise<McpTestClient> =>
    connectMcp(kind, {
      command: process.execPath,
      args: ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', SERVER],
      cwd: ROOT,
      env: { SVC_MCP_TEST_DATASOURCE: JSON.stringify(options), SVC_MCP_TEST_USER: JSON.stringify(user) },
    });

  // One reader of tenant b for the database (a process per connection is what stdio costs), and per client kind an
  // editor of tenant a.
  let readerB: McpTestClient;
  beforeAll(async () => {
    readerB = await launch('v2 client, 2026-07-28', { name: 'rex', tenant: 'b', role: 'reader' });
  }, 60_000);
  afterAll(() => readerB?.close());

  describe.each(MCP_CLIENT_KINDS)('with the %s', (kind) => {
    let editorA: McpTestClient;
    beforeAll(async () => {
      editorA = await launch(kind, { name: 'ann', tenant: 'a', role: 'editor' });
    }, 60_000);
    afterAll(() => editorA?.close());

    it('lists the tools of enabled operations with their schemas and annotations', async () => {
      const tools = await editorA.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(
        expect.arrayContaining(['book_find_many', 'book_purge_one', 'ledger_patch_one', 'svc_describe']),
      );
      expect(names).not.toContain('author_delete_one');
      const findMany = tools.find((tool) => tool.name === 'book_find_many')!;
      expect(findMany.annotations).toMatchObject({ readOnlyHint: true });
      expect(findMany.inputSchema['properties']).toMatchObject({ limit: { maximum: 50 } });
    });

    it('calls every kind of tool with the context the host passed in', async () => {
      const created = ok(await editorA.callTool('book_create_one', { data: { title: `stdio ${kind}`, pages: 10 } }));
      const id = created['id'];
      expect(ok(await editorA.callTool('book_find_one', { id }))).toMatchObject({ pages: 10 });
      expect(
        ok(await editorA.callTool('book_find_many', { filter: { title: { eq: `stdio ${kind}` } } })),
      ).toMatchObject({ total: 1 });
      expect(
        ok(await editorA.callTool('book_update_one', { id, data: { title: `stdio ${kind}`, pages: 20 } })),
      ).toMatchObject({
        pages: 20,
      });
      expect(ok(await editorA.callTool('book_patch_one', { id, data: { pages: 30 } }))).toMatchObject({ pages: 30 });
      expect(ok(await editorA.callTool('book_delete_one', { id }))).toEqual({ id, deleted: true });
      expect(ok(await editorA.callTool('book_restore_one', { id }))).toMatchObject({ id });
      ok(await editorA.callTool('book_delete_one', { id }));
      expect(ok(await editorA.callTool('book_purge_one', { id }))).toEqual({ id, purged: true });
    });

    it('answers bad arguments with tool errors naming them', async () => {
      const body = problem(await editorA.callTool('book_find_many', { limit: 'ten', filter: { title: { gt: 'a' } } }));
      expect(body.code).toBe('SVC_QUERY_INVALID');
      expect(body.errors!.map((error) => error.param).sort()).toEqual(['filter.title.gt', 'limit']);
    });

    it("scopes and refuses by the host's context: tenant rows, write policy, svc_describe", async () => {
      const row = ok(await editorA.callTool('ledger_create_one', { data: { tenant: 'a', label: `stdio ${kind}` } }));
      expect(problem(await readerB.callTool('ledger_find_one', { id: row['id'] })).code).toBe('SVC_NOT_FOUND');
      const seen = ok(await readerB.callTool('ledger_find_many', {}));
      expect((seen['items'] as { tenant: string }[]).every((item) => item.tenant === 'b')).toBe(true);
      expect(problem(await readerB.callTool('ledger_create_one', { data: { tenant: 'b', label: 'x' } })).code).toBe(
        'SVC_FORBIDDEN',
      );
      const described = ok(await readerB.callTool('svc_describe', {}))['entities'] as { name: string }[];
      expect(described.map((entity) => entity.name)).not.toContain('Vault');
      expect(described.map((entity) => entity.name)).toContain('Ledger');
    });
  });
});
