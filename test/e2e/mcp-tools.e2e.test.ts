/**
 * The agent-tool binding over Streamable HTTP, checked with the MCP SDK's own clients (v2 on both protocol revisions,
 * and v1, which checks results against output schemas) on every test database: the tools of enabled operations with
 * their schemas and annotations, every tool called, bad arguments as tool errors naming the argument, and policy and
 * tenant scoping per caller.
 */
import { TEST_DATABASES } from '../support/test-databases';
import { Book } from '../fixtures/bookstore-entities';
import { MCP_ENTITIES, mcpControllers } from './support/mcp-fixtures';
import { startMcpApp, type McpApp } from './support/mcp-app';
import { callToolRaw, MCP_REVISIONS, type RawToolAnswer } from './support/mcp-raw-calls';
import { TEST_PLATFORM } from '../support/create-test-app';
import {
  connectMcp,
  MCP_CLIENT_KINDS,
  type McpTestClient,
  type ToolCallResult,
  type ToolInfo,
} from './support/mcp-clients';

const EXPECTED_TOOLS = [
  'book_find_many',
  'book_find_one',
  'book_create_one',
  'book_update_one',
  'book_patch_one',
  'book_delete_one',
  'book_restore_one',
  'book_purge_one',
  'author_find_many',
  'author_find_one',
  'author_create_one',
  'note_find_many',
  'note_find_one',
  'note_create_one',
  'note_update_one',
  'note_patch_one',
  'note_delete_one',
  'ledger_find_many',
  'ledger_find_one',
  'ledger_create_one',
  'ledger_update_one',
  'ledger_patch_one',
  'ledger_delete_one',
  'vault_find_many',
  'vault_find_one',
  'vault_create_one',
  'vault_update_one',
  'vault_patch_one',
  'vault_delete_one',
  'svc_describe',
];

const EDITOR_A = { 'x-user': 'ann:a:editor' };
const READER_A = { 'x-user': 'rex:a:reader' };
const EDITOR_B = { 'x-user': 'bob:b:editor' };
const ADMIN = { 'x-user': 'ada:a:admin' };

type Problem = {
  code: string;
  status: number;
  detail: string;
  errors?: { param?: string; field?: string; code: string }[];
};

function ok(result: ToolCallResult): Record<string, unknown> {
  if (result.isError) throw new Error(`the call failed: ${JSON.stringify(result.structuredContent)}`);
  expect(JSON.parse(result.content[0]!.text!)).toEqual(result.structuredContent);
  return result.structuredContent!;
}

function problem(result: ToolCallResult): Problem {
  expect(result.isError).toBe(true);
  expect(JSON.parse(result.content[0]!.text!)).toEqual(result.structuredContent);
  return result.structuredContent as unknown as Problem;
}

function named(problemBody: Problem): string[] {
  return (problemBody.errors ?? []).map((error) => error.param ?? `data.${error.field}`);
}

describe.each(TEST_DATABASES)('MCP tools over Streamable HTTP on $name', (db) => {
  let app: McpApp;

  beforeAll(async () => {
    app = await startMcpApp({
      db,
      suite: 'e2e_mcp_tools',
      entities: MCP_ENTITIES,
      controllers: mcpControllers(),
      svc: { operations: { purgeOne: true } },
    });
  });
  afterAll(() => app?.close());

  describe.each(MCP_CLIENT_KINDS)('with the %s', (kind) => {
    const clients: Record<string, McpTestClient> = {};
    const connect = async (name: string, headers: Record<string, string>) =>
      (clients[name] = await connectMcp(kind, { url: app.url, headers }));

    beforeAll(async () => {
      await connect('editorA', EDITOR_A);
      await connect('readerA', READER_A);
      await connect('editorB', EDITOR_B);
      await connect('admin', ADMIN);
    });
    afterAll(async () => {
      for (const client of Object.values(clients)) await client.close();
    });

    it('runs on the protocol revision the client asked for', () => {
      expect(clients['editorA']!.protocolVersion).toBe(kind === 'v2 client, 2026-07-28' ? '2026-07-28' : '2025-11-25');
    });

    describe('tools/list', () => {
      let tools: ToolInfo[];
      const tool = (name: string) => tools.find((candidate) => candidate.name === name)!;
      beforeAll(async () => {
        // Each caller lists the tools it may call: an editor's and the admin's lists together are the whole toolset.
        const byName = new Map<string, ToolInfo>();
        for (const caller of ['editorA', 'admin'])
          for (const listed of await clients[caller]!.listTools()) byName.set(listed.name, listed);
        tools = [...byName.values()];
      });

      it('lists one tool per enabled standard operation, plus svc_describe, and nothing else', () => {
        expect(tools.map((candidate) => candidate.name).sort()).toEqual([...EXPECTED_TOOLS].sort());
      });

      it('leaves out operations the entity turns off (Author serves no update, patch or delete)', () => {
        const names = tools.map((candidate) => candidate.name);
        expect(names).not.toContain('author_update_one');
        expect(names).not.toContain('author_patch_one');
        expect(names).not.toContain('author_delete_one');
      });

      it('names every tool within the MCP tool-name rule', () => {
        for (const candidate of tools) expect(candidate.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      });

      it('describes each tool from its entity and operation', () => {
        expect(tool('book_find_many').description).toContain('List Book rows');
        expect(tool('book_find_many').description).toContain('at most 50');
        expect(tool('book_delete_one').description).toContain('soft delete');
        expect(tool('note_create_one').description).toContain('Create a Note');
      });

      it('marks reads read-only, deletes and purges destructive, creates not, and update, delete, restore idempotent', () => {
        expect(tool('book_find_many').annotations).toMatchObject({ readOnlyHint: true });
        expect(tool('book_find_one').annotations).toMatchObject({ readOnlyHint: true });
        expect(tool('book_create_one').annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
        expect(tool('book_delete_one').annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
        expect(tool('book_purge_one').annotations).toMatchObject({ destructiveHint: true });
        expect(tool('book_update_one').annotations).toMatchObject({ idempotentHint: true });
        expect(tool('book_restore_one').annotations).toMatchObject({ idempotentHint: true, destructiveHint: false });
        expect(tool('book_create_one').annotations).toMatchObject({ idempotentHint: false });
      });

      it('types the id by key kind: an integer for Book, a uuid string for Note', () => {
        expect(tool('book_find_one').inputSchema).toMatchObject({
          properties: { id: { type: 'integer' } },
          required: ['id'],
          additionalProperties: false,
        });
        expect(tool('note_find_one').inputSchema).toMatchObject({
          properties: { id: { type: 'string', format: 'uuid' } },
        });
      });

      it('types the write slot: required fields on create, enums, nullable columns, references by key', () => {
        const create = (tool('book_create_one').inputSchema['properties'] as Record<string, Record<string, unknown>>)[
          'data'
        ]!;
        expect(create['required']).toEqual(['title']);
        expect(create['additionalProperties']).toBe(false);
        expect((create['properties'] as Record<string, unknown>)['rating']).toEqual({ type: ['number', 'null'] });
        const note = (tool('note_create_one').inputSchema['properties'] as Record<string, Record<string, unknown>>)[
          'data'
        ]!;
        expect((note['properties'] as Record<string, unknown>)['priority']).toEqual({
          type: 'string',
          enum: ['low', 'normal', 'high'],
        });
        const patch = (tool('book_patch_one').inputSchema['properties'] as Record<string, Record<string, unknown>>)[
          'data'
        ]!;
        expect(patch['required']).toBeUndefined();
        expect(patch['minProperties']).toBe(1);
      });

      it('types the filter with only the operators each field allows, and the list arguments as enums and bounds', () => {
        const schema = tool('book_find_many').inputSchema as Record<string, Record<string, Record<string, unknown>>>;
        const filter = schema['$defs']!['BookFilter'] as {
          properties: Record<string, { properties: Record<string, unknown> }>;
        };
        expect(Object.keys(filter.properties['pages']!.properties).sort()).toEqual([
          'between',
          'gt',
          'gte',
          'lt',
          'lte',
        ]);
        expect(Object.keys(filter.properties['title']!.properties).sort()).toEqual(['contains', 'eq', 'in']);
        expect(Object.keys(filter.properties['author.name']!.properties).sort()).toEqual(['eq', 'startsWith']);
        expect(filter.properties['title']!.properties['in']).toMatchObject({ type: 'array', maxItems: 3 });
        expect(filter.properties['or']).toEqual(expect.objectContaining({ items: { $ref: '#/$defs/BookFilter' } }));
        expect(schema['properties']!['limit']).toMatchObject({ type: 'integer', minimum: 1, maximum: 50 });
        expect(schema['properties']!['offset']).toMatchObject({ type: 'integer', minimum: 0 });
        expect(schema['properties']!['sort']).toMatchObject({
          items: { enum: expect.arrayContaining(['pages', '-pages']) },
        });
        expect(schema['properties']!['include']).toMatchObject({ items: { enum: ['author'] } });
        expect(schema['properties']!['select']).toMatchObject({ items: { enum: expect.arrayContaining(['title']) } });
        expect(schema['properties']!['withDeleted']).toEqual(expect.objectContaining({ type: 'boolean' }));
        expect(schema['properties']!['search']).toMatchObject({ type: 'string' });
      });

      it('gives every tool an output schema that admits its success and the problem object', () => {
        for (const candidate of tools) {
          expect(candidate.outputSchema).toMatchObject({ type: 'object' });
          expect((candidate.outputSchema!['anyOf'] as unknown[]).length).toBe(2);
        }
      });
    });

    describe('calling every tool', () => {
      it('creates, reads, lists, replaces, changes, deletes, restores and purges a Book', async () => {
        const client = clients['editorA']!;
        const title = `Dune ${kind}`;
        const author = ok(await client.callTool('author_create_one', { data: { name: `Herbert ${kind}` } }));
        const created = ok(
          await client.callTool('book_create_one', { data: { title, pages: 412, author: { id: author['id'] } } }),
        );
        expect(created).toMatchObject({ title, pages: 412, authorId: author['id'] });
        const id = created['id'] as number;
        expect(ok(await client.callTool('book_find_one', { id, include: ['author'] }))).toMatchObject({
          id,
          author: { name: `Herbert ${kind}` },
        });
        const list = ok(
          await client.callTool('book_find_many', {
            filter: { title: { eq: title }, pages: { gte: 400 } },
            sort: ['-pages'],
            select: ['title', 'pages'],
            limit: 5,
          }),
        );
        expect(list).toMatchObject({ items: [{ title, pages: 412 }], limit: 5, offset: 0, total: 1 });
        const found = ok(await client.callTool('book_find_many', { search: title, select: ['id'] }));
        expect(found).toMatchObject({ items: [{ id }], total: 1 });
        const byAuthor = ok(
          await client.callTool('book_find_many', { filter: { 'author.name': { eq: `Herbert ${kind}` } } }),
        );
        expect(byAuthor).toMatchObject({ items: [{ id }], total: 1 });
        expect(ok(await client.callTool('author_find_one', { id: author['id'] }))).toMatchObject({ id: author['id'] });
        expect(
          ok(await client.callTool('author_find_many', { filter: { name: { eq: `Herbert ${kind}` } } })),
        ).toMatchObject({
          total: 1,
        });
        const replaced = ok(await client.callTool('book_update_one', { id, data: { title, pages: 500 } }));
        expect(replaced).toMatchObject({ pages: 500, authorId: null });
        expect(ok(await client.callTool('book_patch_one', { id, data: { published: true } }))).toMatchObject({
          published: true,
          pages: 500,
        });
        expect(ok(await client.callTool('book_delete_one', { id }))).toEqual({ id, deleted: true });
        expect(problem(await client.callTool('book_find_one', { id })).code).toBe('SVC_NOT_FOUND');
        const deleted = ok(
          await client.callTool('book_find_many', { filter: { title: { eq: title } }, onlyDeleted: true }),
        );
        expect(deleted['total']).toBe(1);
        expect(ok(await client.callTool('book_restore_one', { id }))).toMatchObject({ id, deletedAt: null });
        ok(await client.callTool('book_delete_one', { id }));
        expect(ok(await client.callTool('book_purge_one', { id }))).toEqual({ id, purged: true });
        expect(problem(await client.callTool('book_restore_one', { id })).code).toBe('SVC_NOT_FOUND');
      });

      it('creates, reads, lists, replaces, changes and deletes a Note by its uuid, with enum, json and date values', async () => {
        const client = clients['editorA']!;
        const note = ok(
          await client.callTool('note_create_one', {
            data: { text: `note ${kind}`, priority: 'high', data: { a: [1, 2] }, due: '2026-12-01' },
          }),
        );
        const id = note['id'] as string;
        expect(id).toMatch(/^[0-9a-f-]{36}$/);
        expect(ok(await client.callTool('note_find_one', { id }))).toMatchObject({
          priority: 'high',
          data: { a: [1, 2] },
        });
        expect(
          ok(
            await client.callTool('note_find_many', {
              filter: { priority: { eq: 'high' }, text: { eq: `note ${kind}` } },
            }),
          ),
        ).toMatchObject({ total: 1 });
        expect(
          ok(await client.callTool('note_update_one', { id, data: { text: `note ${kind}`, priority: 'low' } })),
        ).toMatchObject({
          priority: 'low',
          data: null,
        });
        expect(ok(await client.callTool('note_patch_one', { id, data: { priority: 'normal' } }))).toMatchObject({
          priority: 'normal',
        });
        expect(ok(await client.callTool('note_delete_one', { id }))).toEqual({ id, deleted: true });
        expect(problem(await client.callTool('note_find_one', { id })).code).toBe('SVC_NOT_FOUND');
      });

      it('answers a refused or failed call with isError and the problem object, whatever the client checks', async () => {
        const client = clients['editorA']!;
        const missing = problem(await client.callTool('book_find_one', { id: 987654 }));
        expect(missing).toMatchObject({ code: 'SVC_NOT_FOUND', status: 404, title: expect.any(String) });
        const isbn = `isbn-${MCP_CLIENT_KINDS.indexOf(kind)}`;
        ok(await client.callTool('book_create_one', { data: { title: 'one', isbn } }));
        expect(problem(await client.callTool('book_create_one', { data: { title: 'two', isbn } })).code).toBe(
          'SVC_CONFLICT',
        );
        const unresolved = problem(
          await client.callTool('book_create_one', { data: { title: 'x', author: { id: 999999 } } }),
        );
        expect(unresolved.code).toBe('SVC_UNRESOLVED_RELATION');
      });
    });

    describe('bad arguments: tool errors naming the argument, never protocol errors', () => {
      const call = (name: string, args: Record<string, unknown>) => clients['editorA']!.callTool(name, args);

      it('a wrong type', async () => {
        const body = problem(await call('book_find_one', { id: 'seven' }));
        expect(body.code).toBe('SVC_QUERY_INVALID');
        expect(named(body)).toEqual(['id']);
        const data = problem(await call('book_patch_one', { id: 1, data: { pages: 'many' } }));
        expect(data.code).toBe('SVC_VALIDATION_FAILED');
        expect(data.errors).toEqual([expect.objectContaining({ field: 'pages', code: 'type' })]);
      });

      it('an unknown argument, data field or filter field', async () => {
        const unknown = problem(await call('book_find_many', { pagez: 1 }));
        expect(unknown.code).toBe('SVC_QUERY_UNSUPPORTED_PARAM');
        expect(named(unknown)).toEqual(['pagez']);
        const field = problem(await call('book_create_one', { data: { title: 'x', secret: 1 } }));
        expect(field.code).toBe('SVC_VALIDATION_FAILED');
        expect(named(field)).toEqual(['data.secret']);
        expect(named(problem(await call('book_find_many', { filter: { nope: { eq: 1 } } })))).toEqual(['filter.nope']);
      });

      it('a name every object inherits (toString, constructor, ...), at every level, as an unknown one', async () => {
        // (`__proto__` is sent as raw JSON text below: an SDK client's own handling may drop it before it is sent.)
        for (const name of ['toString', 'constructor', 'hasOwnProperty', 'valueOf']) {
          const own = (value: unknown): Record<string, unknown> => Object.fromEntries([[name, value]]);
          const top = problem(await call('book_find_many', own(1)));
          expect(top.code).toBe('SVC_QUERY_UNSUPPORTED_PARAM');
          expect(named(top)).toEqual([name]);
          const data = problem(await call('book_create_one', { data: { title: 'x', ...own(1) } }));
          expect(data.code).toBe('SVC_VALIDATION_FAILED');
          expect(named(data)).toEqual([`data.${name}`]);
          expect(named(problem(await call('book_find_many', { filter: own({ eq: 1 }) })))).toEqual([`filter.${name}`]);
        }
      });

      it('an operator the field does not allow', async () => {
        const body = problem(await call('book_find_many', { filter: { title: { startsWith: 'D' } } }));
        expect(body.code).toBe('SVC_QUERY_INVALID');
        expect(named(body)).toEqual(['filter.title.startsWith']);
        expect(body.detail).toBeTruthy();
        expect(named(problem(await call('book_find_many', { filter: { or: [{ pages: { ne: 3 } }] } })))).toEqual([
          'filter.or.0.pages.ne',
        ]);
      });

      it('limits exceeded: limit above maxLimit, too many in-values, a negative offset', async () => {
        expect(named(problem(await call('book_find_many', { limit: 51 })))).toEqual(['limit']);
        expect(named(problem(await call('book_find_many', { offset: -1 })))).toEqual(['offset']);
        expect(
          named(problem(await call('book_find_many', { filter: { title: { in: ['a', 'b', 'c', 'd'] } } }))),
        ).toEqual(['filter.title.in']);
      });

      it('a value outside an enum, a missing required field, an empty patch, a sort key not allowed', async () => {
        expect(named(problem(await call('note_create_one', { data: { text: 'x', priority: 'urgent' } })))).toEqual([
          'data.priority',
        ]);
        expect(named(problem(await call('book_create_one', { data: { pages: 3 } })))).toEqual(['data.title']);
        expect(named(problem(await call('book_patch_one', { id: 1, data: {} })))).toEqual(['data']);
        expect(named(problem(await call('book_find_many', { sort: ['-nope'] })))).toEqual(['sort.0']);
        expect(named(problem(await call('book_find_one', {})))).toEqual(['id']);
      });

      it('a filter nested thousands of levels deep: a 400, before the walk can exhaust the stack', async () => {
        let filter: Record<string, unknown> = { pages: { eq: 1 } };
        for (let i = 0; i < 3000; i++) filter = { not: filter };
        const deep = problem(await call('book_find_many', { filter }));
        expect(deep).toMatchObject({ code: 'SVC_QUERY_INVALID', status: 400 });
        expect(deep.errors).toEqual([expect.objectContaining({ code: 'too_deep' })]);
        // Within the walk's bound, the engine's own depth limit answers.
        let nested: Record<string, unknown> = { pages: { eq: 1 } };
        for (let i = 0; i < 40; i++) nested = { not: nested };
        expect(problem(await call('book_find_many', { filter: nested }))).toMatchObject({ status: 400 });
      });

      it('an unknown tool is the protocol error the MCP spec asks for', async () => {
        await expect(call('book_fly', {})).rejects.toThrow(/book_fly/);
      });
    });

    describe('policy and tenant scoping per caller', () => {
      it("lists and reads only the caller's tenant rows", async () => {
        const a = ok(
          await clients['editorA']!.callTool('ledger_create_one', { data: { tenant: 'a', label: `a ${kind}` } }),
        );
        const b = ok(
          await clients['editorB']!.callTool('ledger_create_one', { data: { tenant: 'b', label: `b ${kind}` } }),
        );
        const seenByA = ok(await clients['readerA']!.callTool('ledger_find_many', { limit: 50 }));
        expect((seenByA['items'] as { tenant: string }[]).every((row) => row.tenant === 'a')).toBe(true);
        expect((seenByA['items'] as { id: number }[]).map((row) => row.id)).toContain(a['id']);
        const seenByB = ok(await clients['editorB']!.callTool('ledger_find_many', { limit: 50 }));
        expect((seenByB['items'] as { tenant: string }[]).every((row) => row.tenant === 'b')).toBe(true);
        expect(problem(await clients['readerA']!.callTool('ledger_find_one', { id: b['id'] })).code).toBe(
          'SVC_NOT_FOUND',
        );
        expect(
          problem(await clients['editorA']!.callTool('ledger_patch_one', { id: b['id'], data: { amount: 9 } })).code,
        ).toBe('SVC_NOT_FOUND');
        expect(problem(await clients['editorA']!.callTool('ledger_delete_one', { id: b['id'] })).code).toBe(
          'SVC_NOT_FOUND',
        );
        expect(ok(await clients['editorB']!.callTool('ledger_find_one', { id: b['id'] }))).toMatchObject({
          amount: 0,
          tenant: 'b',
        });
      });

      it('refuses a write the policy refuses the caller with SVC_FORBIDDEN', async () => {
        const body = problem(
          await clients['readerA']!.callTool('ledger_create_one', { data: { tenant: 'a', label: 'no' } }),
        );
        expect(body).toMatchObject({ code: 'SVC_FORBIDDEN', status: 403 });
        expect(problem(await clients['readerA']!.callTool('vault_find_many', {})).code).toBe('SVC_FORBIDDEN');
      });

      it('describes only what the caller may use', async () => {
        const entities = (caller: string) =>
          clients[caller]!.callTool('svc_describe', {}).then(
            (result) => ok(result)['entities'] as { name: string; tools: Record<string, string> }[],
          );
        const reader = await entities('readerA');
        expect(reader.map((entity) => entity.name).sort()).toEqual(['Author', 'Book', 'Ledger', 'Note']);
        expect(reader.find((entity) => entity.name === 'Ledger')!.tools).toEqual({
          findMany: 'ledger_find_many',
          findOne: 'ledger_find_one',
        });
        const editor = await entities('editorA');
        expect(Object.keys(editor.find((entity) => entity.name === 'Ledger')!.tools)).toHaveLength(6);
        const admin = await entities('admin');
        expect(admin.map((entity) => entity.name)).toContain('Vault');
        const book = reader.find((entity) => entity.name === 'Book') as unknown as Record<string, unknown>;
        expect(book).toMatchObject({
          key: ['id'],
          filter: { pages: ['gt', 'gte', 'lt', 'lte', 'between'] },
          include: ['author'],
          pagination: { paged: true, maxLimit: 50 },
          write: { create: { required: ['title'] } },
        });
        expect(problem(await clients['readerA']!.callTool('svc_describe', { entity: 3 })).code).toBe(
          'SVC_QUERY_INVALID',
        );
        // tools/list answers the same for each caller: the tools svc_describe names, and svc_describe.
        for (const [caller, described] of [
          ['readerA', reader],
          ['editorA', editor],
          ['admin', admin],
        ] as const) {
          const listed = (await clients[caller]!.listTools()).map((candidate) => candidate.name).sort();
          const named = described.flatMap((entity) => Object.values(entity.tools));
          expect(listed).toEqual([...named, 'svc_describe'].sort());
        }
      });
    });
  });

  describe('raw JSON text over HTTP, on each protocol revision (what an SDK client may not send as written)', () => {
    const raw = (name: string, args: string, revision: (typeof MCP_REVISIONS)[number]) =>
      callToolRaw(app.url, { name, args, revision, headers: EDITOR_A });
    const problemOf = (answer: RawToolAnswer): Problem => {
      expect(answer).toMatchObject({ status: 200, result: { isError: true } });
      return answer.result!.structuredContent as unknown as Problem;
    };
    const books = () => app.dataSource.getRepository(Book).count();

    /** Each call with the key written as `NAME`: what the server answers for `name` in its place. */
    const CALLS: readonly (readonly [tool: string, args: string])[] = [
      ['book_find_many', '{"NAME":{"limit":1}}'],
      ['book_find_many', '{"limit":1,"NAME":1}'],
      ['book_find_many', '{"filter":{"NAME":{"eq":1}}}'],
      ['book_find_many', '{"filter":{"title":{"NAME":"x"}}}'],
      ['book_find_many', '{"filter":{"not":{"NAME":{"pages":{"gt":1}}}}}'],
      ['book_find_many', '{"filter":{"or":[{"NAME":{}}]}}'],
      ['book_create_one', '{"data":{"title":"x","NAME":{"pages":1}}}'],
      ['book_create_one', '{"data":{"title":"x","author":{"id":1,"NAME":2}}}'],
      ['svc_describe', '{"NAME":{"entity":"Book"}}'],
    ];

    describe.each(MCP_REVISIONS)('on %s', (revision) => {
      it('refuses an own __proto__, constructor or prototype key at every level as the unknown name it is', async () => {
        const before = await books();
        for (const [tool, args] of CALLS) {
          const answer = (name: string) => raw(tool, args.replace('NAME', name), revision);
          const unknown = problemOf(await answer('zzz'));
          for (const name of ['__proto__', 'constructor', 'prototype']) {
            const sent = await answer(name);
            // Fastify's JSON parser refuses a body with a __proto__ key (400) before any route runs.
            if (name === '__proto__' && TEST_PLATFORM === 'fastify') {
              expect(sent.status).toBe(400);
              continue;
            }
            const refused = problemOf(sent);
            expect({ tool, args, refused }).toEqual({
              tool,
              args,
              refused: JSON.parse(JSON.stringify(unknown).replaceAll('zzz', name)),
            });
          }
        }
        // At the top level that is SVC_QUERY_UNSUPPORTED_PARAM, naming the key.
        if (TEST_PLATFORM !== 'fastify') {
          const top = problemOf(await raw('book_find_many', '{"__proto__":{"limit":1}}', revision));
          expect(top).toMatchObject({ code: 'SVC_QUERY_UNSUPPORTED_PARAM', status: 400 });
          expect(top.errors).toEqual([expect.objectContaining({ param: '__proto__', code: 'unknown' })]);
        }
        expect(await books()).toBe(before);
      });
    });

    // The refusal comes before any read, so one database shows it; hundreds of rounds let V8 optimize the walks, whose
    // frames then differ in size: a bound that held only by the stack's size would change its answer.
    (db === TEST_DATABASES[0] ? it : it.skip)(
      'refuses arguments nested thousands of levels deep with a 400 naming the problem, round after round',
      async () => {
        const nested = (levels: number, open: string, close: string, inner: string) =>
          `${open.repeat(levels)}${inner}${close.repeat(levels)}`;
        const condition = '{"pages":{"gt":1}}';
        const everyRound: (readonly [tool: string, args: string])[] = [
          ['book_find_many', `{"filter":${nested(3000, '{"not":', '}', condition)}}`],
          ['book_create_one', `{"data":{"title":"x","pages":${nested(3000, '[', ']', '1')}}}`],
        ];
        const everyTenth: (readonly [tool: string, args: string])[] = [
          ['book_find_many', `{"filter":${nested(1500, '{"or":[', ']}', condition)}}`],
          ['note_create_one', `{"data":{"text":"x","data":${nested(3000, '{"a":', '}', '1')}}}`],
          // At the bound of the argument check's own walk: the walk runs, and the engine's depth limit answers.
          ['book_find_many', `{"filter":${nested(998, '{"not":', '}', condition)}}`],
        ];
        const before = await books();
        for (let round = 0; round < 300; round++) {
          const revision = MCP_REVISIONS[round % MCP_REVISIONS.length]!;
          for (const [tool, args] of round % 10 === 0 ? [...everyRound, ...everyTenth] : everyRound) {
            const refused = problemOf(await raw(tool, args, revision));
            expect(refused).toMatchObject({ status: 400 });
            expect(refused.errors).toEqual([expect.objectContaining({ code: 'too_deep' })]);
            expect(refused.detail).toMatch(/levels deep/);
          }
        }
        expect(await books()).toBe(before);
        for (const revision of MCP_REVISIONS)
          expect((await raw('book_find_many', '{"limit":1}', revision)).result?.isError).toBeFalsy();
      },
      120_000,
    );
  });
});
