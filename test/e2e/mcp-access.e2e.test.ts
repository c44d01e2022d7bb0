/**
 * Access per caller over the agent tools (`access`), two tenants by three roles on each database, with the MCP SDK's
 * own clients (v2 on 2026-07-28, and v1, which checks every result against the output schema it was listed): a column
 * a role may not read is in none of its `tools/list` schemas, its `svc_describe` or its results, and is refused in its
 * filter; a column it may not write is refused in a tool's `data` naming it; related rows follow their own entity's
 * policy and role; and no tenant reads another's rows.
 */
import { TEST_DATABASES } from '../support/test-databases';
import { svcController } from '../support/create-test-app';
import { startMcpApp, type McpApp } from './support/mcp-app';
import {
  connectMcp,
  type McpClientKind,
  type McpTestClient,
  type ToolCallResult,
  type ToolInfo,
} from './support/mcp-clients';
import {
  ACCESS_ENTITIES,
  AcAuthor,
  AcBook,
  AcReview,
  AUTHOR_CONFIG,
  BOOK_CONFIG,
  REVIEW_CONFIG,
} from './support/access-fixtures';

type Row = Record<string, unknown>;
type Schema = Record<string, unknown>;
type Problem = { code: string; status: number; errors?: { param?: string; field?: string; code: string }[] };

const KINDS: readonly McpClientKind[] = ['v2 client, 2026-07-28', 'v1 client'];
const CALLERS = [
  ['a', 'reader'],
  ['a', 'editor'],
  ['a', 'admin'],
  ['b', 'reader'],
  ['b', 'editor'],
  ['b', 'admin'],
  ['a', 'blocked'],
] as const;

function ok(result: ToolCallResult): Row {
  if (result.isError) throw new Error(`the call failed: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent!;
}

function problem(result: ToolCallResult): Problem {
  expect(result.isError).toBe(true);
  return result.structuredContent as unknown as Problem;
}

/** What a problem names: `data.<field>` for a body field, else the argument's path. */
function named(body: Problem): string[] {
  return (body.errors ?? []).map((error) => (error.field !== undefined ? `data.${error.field}` : error.param!));
}

function propertiesOf(schema: unknown): Record<string, Schema> {
  return ((schema as Schema | undefined)?.['properties'] as Record<string, Schema> | undefined) ?? {};
}

/** The item a list tool's success serves. */
function listItemOf(tool: ToolInfo): Schema {
  const success = (tool.outputSchema!['anyOf'] as Schema[])[0]!;
  return propertiesOf(success)['items']!['items'] as Schema;
}

/** The filter a tool takes, its `$ref` followed. */
function filterOf(tool: ToolInfo): Schema {
  const filter = propertiesOf(tool.inputSchema)['filter']!;
  const ref = filter['$ref'];
  if (typeof ref !== 'string') return filter;
  return (tool.inputSchema['$defs'] as Record<string, Schema>)[ref.slice('#/$defs/'.length)]!;
}

describe.each(TEST_DATABASES)('Access per caller over the MCP tools on $name', (db) => {
  let app: McpApp;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    app = await startMcpApp({
      db,
      suite: 'e2e_mcp_access',
      entities: ACCESS_ENTITIES,
      controllers: [
        svcController('books', AcBook, BOOK_CONFIG),
        svcController('authors', AcAuthor, AUTHOR_CONFIG),
        svcController('reviews', AcReview, REVIEW_CONFIG),
      ],
    });
    const authors = app.dataSource.getRepository(AcAuthor);
    ids['ann'] = (await authors.save({ tenant: 'a', name: 'Ann', email: 'ann@a.test' })).id;
    ids['bob'] = (await authors.save({ tenant: 'b', name: 'Bob', email: 'bob@b.test' })).id;
    const books = app.dataSource.getRepository(AcBook);
    ids['a1'] = (await books.save({ tenant: 'a', title: 'A one', price: 20, cost: 7, authorId: ids['ann']! })).id;
    ids['a2'] = (await books.save({ tenant: 'a', title: 'A two', price: 30, cost: 9, authorId: ids['ann']! })).id;
    ids['b1'] = (await books.save({ tenant: 'b', title: 'B one', price: 40, cost: 11, authorId: ids['bob']! })).id;
    const reviews = app.dataSource.getRepository(AcReview);
    ids['ra'] = (await reviews.save({ tenant: 'a', rating: 4, bookId: ids['a1']! })).id;
    ids['rb'] = (await reviews.save({ tenant: 'b', rating: 2, bookId: ids['b1']! })).id;
  });
  afterAll(() => app?.close());

  describe.each(KINDS)('with the %s', (kind) => {
    const clients: Record<string, McpTestClient> = {};
    const listed: Record<string, ToolInfo[]> = {};
    /** The client of `<tenant>:<role>`. */
    const as = (tenant: string, role: string) => clients[`${tenant}:${role}`]!;
    const toolOf = (tenant: string, role: string, name: string) =>
      listed[`${tenant}:${role}`]!.find((tool) => tool.name === name);
    const describeAs = async (tenant: string, role: string, entity: string) =>
      (ok(await as(tenant, role).callTool('svc_describe', { entity }))['entities'] as Row[])[0];

    beforeAll(async () => {
      for (const [tenant, role] of CALLERS) {
        const client = await connectMcp(kind, { url: app.url, headers: { 'x-tenant': tenant, 'x-role': role } });
        clients[`${tenant}:${role}`] = client;
        listed[`${tenant}:${role}`] = await client.listTools();
      }
    });
    afterAll(async () => {
      for (const client of Object.values(clients)) await client.close();
    });

    describe('tools/list', () => {
      it.each(['a', 'b'])('tenant %s: a reader’s and an editor’s schemas name no cost, an admin’s do', (tenant) => {
        for (const role of ['reader', 'editor']) {
          const bookTools = listed[`${tenant}:${role}`]!.filter((tool) => tool.name.startsWith('ac_book_'));
          expect(bookTools.map((tool) => tool.name)).toContain('ac_book_find_many');
          expect(JSON.stringify(bookTools)).not.toMatch(/\bcost\b/);
          const findMany = toolOf(tenant, role, 'ac_book_find_many')!;
          expect(Object.keys(propertiesOf(listItemOf(findMany)))).toEqual(
            expect.arrayContaining(['id', 'title', 'price', 'status']),
          );
          expect(JSON.stringify(filterOf(findMany))).toContain('"price"');
          // The author's email likewise, for a role whose rule on authors hides it (its rule writes what it likes).
          const authors = toolOf(tenant, role, 'ac_author_find_many')!;
          expect(propertiesOf(listItemOf(authors))).not.toHaveProperty('email');
          expect(propertiesOf(listItemOf(authors))).toHaveProperty('name');
          expect(JSON.stringify([filterOf(authors), propertiesOf(authors.inputSchema)['sort']])).not.toMatch(
            /\bemail\b/,
          );
        }
        const admin = toolOf(tenant, 'admin', 'ac_book_find_many')!;
        expect(propertiesOf(listItemOf(admin))).toHaveProperty('cost');
        expect(propertiesOf(filterOf(admin))).toHaveProperty('cost');
        expect(JSON.stringify(propertiesOf(admin.inputSchema)['sort'])).toMatch(/\bcost\b/);
        expect(propertiesOf(listItemOf(toolOf(tenant, 'admin', 'ac_author_find_many')!))).toHaveProperty('email');
      });

      it('a reader is listed no write tool; an editor’s `data` takes the fields it may write, an admin’s every one', () => {
        const names = listed['a:reader']!.map((tool) => tool.name);
        expect(names).toContain('ac_book_find_one');
        expect(names).not.toContain('ac_book_create_one');
        expect(names).not.toContain('ac_book_update_one');
        const data = (tenant: string, role: string, tool: string) =>
          Object.keys(propertiesOf(propertiesOf(toolOf(tenant, role, tool)!.inputSchema)['data']));
        for (const tenant of ['a', 'b']) {
          expect(data(tenant, 'editor', 'ac_book_create_one')).toEqual(
            expect.arrayContaining(['title', 'price', 'authorId']),
          );
          expect(data(tenant, 'editor', 'ac_book_create_one')).not.toEqual(expect.arrayContaining(['status']));
          expect(data(tenant, 'editor', 'ac_book_create_one')).not.toEqual(expect.arrayContaining(['cost']));
          expect(data(tenant, 'editor', 'ac_book_update_one').sort()).toEqual(['price', 'title']);
          expect(data(tenant, 'admin', 'ac_book_create_one')).toEqual(expect.arrayContaining(['status', 'cost']));
          expect(data(tenant, 'admin', 'ac_book_update_one')).toEqual(expect.arrayContaining(['status', 'cost']));
        }
      });

      it('a blocked caller is listed no book tool, and still its reviews', () => {
        const names = listed['a:blocked']!.map((tool) => tool.name);
        expect(names.some((name) => name.startsWith('ac_book_'))).toBe(false);
        expect(names).toContain('ac_review_find_many');
      });
    });

    describe('svc_describe', () => {
      it.each(['a', 'b'])('tenant %s: describes the fields, filter and sort each role is served', async (tenant) => {
        for (const role of ['reader', 'editor']) {
          const book = (await describeAs(tenant, role, 'AcBook'))!;
          expect(JSON.stringify(book)).not.toMatch(/\bcost\b/);
          expect((book['fields'] as Row[]).map((field) => field['name'])).toEqual(
            expect.arrayContaining(['title', 'price', 'status']),
          );
          const author = (await describeAs(tenant, role, 'AcAuthor'))!;
          expect((author['fields'] as Row[]).map((field) => field['name'])).not.toContain('email');
          expect(author['filter']).not.toHaveProperty('email');
          expect(author['sort']).not.toContain('email');
        }
        const admin = (await describeAs(tenant, 'admin', 'AcBook'))!;
        expect((admin['fields'] as Row[]).map((field) => field['name'])).toContain('cost');
        expect(admin['filter']).toHaveProperty('cost');
        expect(admin['sort']).toContain('cost');
        expect((admin['write'] as Record<string, { fields: string[] }>)['create']!.fields).toEqual(
          expect.arrayContaining(['status', 'cost']),
        );
        const editor = (await describeAs(tenant, 'editor', 'AcBook'))!;
        const write = editor['write'] as Record<string, { fields: string[] }>;
        expect(write['create']!.fields).toEqual(expect.arrayContaining(['title', 'price']));
        expect(write['create']!.fields).not.toContain('status');
        expect(write['update']!.fields.sort()).toEqual(['price', 'title']);
        expect(Object.keys((await describeAs(tenant, 'reader', 'AcBook'))!['write'] as Row)).toEqual([]);
      });

      it('a blocked caller is described no books', async () => {
        const entities = ok(await as('a', 'blocked').callTool('svc_describe', {}))['entities'] as Row[];
        expect(entities.map((entity) => entity['name']).sort()).toEqual(['AcAuthor', 'AcReview']);
      });
    });

    describe('reading', () => {
      it.each(CALLERS.filter(([, role]) => role !== 'blocked'))(
        'tenant %s as %s: only the tenant’s rows, with the cost for an admin only',
        async (tenant, role) => {
          const page = ok(await as(tenant, role).callTool('ac_book_find_many', { sort: ['id'] }));
          const items = page['items'] as Row[];
          expect(items.map((item) => item['title'])).toEqual(tenant === 'a' ? ['A one', 'A two'] : ['B one']);
          for (const item of items) {
            expect(item['tenant']).toBe(tenant);
            if (role === 'admin') expect(typeof item['cost']).toBe('number');
            else expect(item).not.toHaveProperty('cost');
          }
          const one = ok(await as(tenant, role).callTool('ac_book_find_one', { id: ids[`${tenant}1`] }));
          expect(one['title']).toBe(tenant === 'a' ? 'A one' : 'B one');
          expect(Object.hasOwn(one, 'cost')).toBe(role === 'admin');
          // Another tenant's row is not found, whatever the role.
          const other = problem(
            await as(tenant, role).callTool('ac_book_find_one', { id: ids[tenant === 'a' ? 'b1' : 'a1'] }),
          );
          expect(other.code).toBe('SVC_NOT_FOUND');
          const authors = ok(await as(tenant, role).callTool('ac_author_find_many', {}))['items'] as Row[];
          expect(authors.map((author) => author['name'])).toEqual([tenant === 'a' ? 'Ann' : 'Bob']);
          expect(Object.hasOwn(authors[0]!, 'email')).toBe(role === 'admin');
        },
      );

      it.each([
        ['filter', { filter: { cost: { gt: 0 } } }, 'filter.cost'],
        ['sort', { sort: ['-cost'] }, 'sort.0'],
      ])('a reader’s %s on the cost is refused naming it; an admin’s is answered', async (_, args, path) => {
        for (const tenant of ['a', 'b']) {
          const refused = problem(await as(tenant, 'reader').callTool('ac_book_find_many', args));
          expect(refused.code).toBe('SVC_QUERY_INVALID');
          expect(named(refused)).toEqual([path]);
          expect(ok(await as(tenant, 'admin').callTool('ac_book_find_many', args))['items']).toHaveLength(
            tenant === 'a' ? 2 : 1,
          );
        }
      });

      it('a reader’s count on the cost is refused too', async () => {
        const refused = problem(await as('a', 'reader').callTool('ac_book_count', { filter: { cost: { gt: 0 } } }));
        expect(refused.code).toBe('SVC_QUERY_INVALID');
        expect(JSON.stringify(refused)).toContain('cost');
      });
    });

    describe('writing', () => {
      it.each([
        ['ac_book_create_one', { title: 'Editor draft', price: 5, status: 'published' }, 'status'],
        ['ac_book_create_one', { title: 'Editor draft', price: 5, cost: 1 }, 'cost'],
      ])('an editor’s %s with a field it may not write is refused naming it', async (tool, data, field) => {
        const before = await app.dataSource.getRepository(AcBook).count();
        const refused = problem(await as('a', 'editor').callTool(tool, { data }));
        expect(refused.code).toBe('SVC_VALIDATION_FAILED');
        expect(named(refused)).toEqual([`data.${field}`]);
        expect(await app.dataSource.getRepository(AcBook).count()).toBe(before);
      });

      it.each([
        ['ac_book_patch_one', 'status'],
        ['ac_book_patch_one', 'cost'],
        ['ac_book_update_one', 'status'],
        ['ac_book_update_one', 'cost'],
      ])('an editor’s %s with %s is refused naming it; nothing is written', async (tool, field) => {
        for (const tenant of ['a', 'b']) {
          const id = ids[`${tenant}1`];
          const data = { title: 'Renamed', price: 21, [field]: field === 'cost' ? 1 : 'published' };
          const refused = problem(await as(tenant, 'editor').callTool(tool, { id, data }));
          expect(refused.code).toBe('SVC_VALIDATION_FAILED');
          if (tool === 'ac_book_patch_one') expect(named(refused)).toEqual([`data.${field}`]);
          // A replace's slot still requires the tenant the editor may not send (core's narrowed slot): named too.
          else expect(named(refused)).toContain(`data.${field}`);
        }
        const row = await app.dataSource.getRepository(AcBook).findOneByOrFail({ id: ids['a1']! });
        expect(row).toMatchObject({ title: 'A one', status: 'draft', cost: 7 });
      });

      it('an editor writes what it may, in its own tenant, and is served no cost back', async () => {
        const created = ok(
          await as('b', 'editor').callTool('ac_book_create_one', {
            data: { title: 'B draft', price: 12, authorId: ids['bob'] },
          }),
        );
        expect(created).toMatchObject({ title: 'B draft', price: 12, tenant: 'b', status: 'draft' });
        expect(created).not.toHaveProperty('cost');
        const patched = ok(
          await as('b', 'editor').callTool('ac_book_patch_one', {
            id: created['id'],
            data: { title: 'B draft, again' },
          }),
        );
        expect(patched).toMatchObject({ title: 'B draft, again', price: 12 });
        expect(patched).not.toHaveProperty('cost');
        // A reader of tenant a never sees it; the admin of b does, with its cost.
        const a = ok(await as('a', 'admin').callTool('ac_book_find_many', {}))['items'] as Row[];
        expect(a.map((item) => item['title'])).not.toContain('B draft, again');
        expect(ok(await as('b', 'admin').callTool('ac_book_find_one', { id: created['id'] }))['cost']).toBe(0);
        await app.dataSource.getRepository(AcBook).delete({ id: created['id'] as number });
      });

      it('an admin writes the cost and the status', async () => {
        const created = ok(
          await as('a', 'admin').callTool('ac_book_create_one', {
            data: { title: 'A admin', price: 50, cost: 25, status: 'published' },
          }),
        );
        expect(created).toMatchObject({ tenant: 'a', cost: 25, status: 'published' });
        await app.dataSource.getRepository(AcBook).delete({ id: created['id'] as number });
      });
    });

    describe('related rows', () => {
      // An agent tool's `include` names the entity's own relations: each hop is checked from its own side.
      it('an include serves the target’s columns for the caller’s role there, from either side', async () => {
        for (const tenant of ['a', 'b']) {
          const reader = ok(await as(tenant, 'reader').callTool('ac_review_find_many', { include: ['book'] }));
          const items = reader['items'] as Row[];
          expect(items).toHaveLength(1);
          const book = items[0]!['book'] as Row;
          expect(book['title']).toBe(tenant === 'a' ? 'A one' : 'B one');
          expect(book).not.toHaveProperty('cost');
          const books = ok(
            await as(tenant, 'reader').callTool('ac_book_find_many', { include: ['author'], sort: ['id'] }),
          )['items'] as Row[];
          expect(books[0]!['author']).toMatchObject({ name: tenant === 'a' ? 'Ann' : 'Bob' });
          expect(books[0]!['author']).not.toHaveProperty('email');
          const authors = ok(await as(tenant, 'reader').callTool('ac_author_find_many', { include: ['books'] }))[
            'items'
          ] as Row[];
          for (const owned of authors[0]!['books'] as Row[]) {
            expect(owned['tenant']).toBe(tenant);
            expect(owned).not.toHaveProperty('cost');
          }
          const admin = ok(await as(tenant, 'admin').callTool('ac_review_find_many', { include: ['book'] }));
          expect(((admin['items'] as Row[])[0]!['book'] as Row)['cost']).toBe(tenant === 'a' ? 7 : 11);
          const adminBooks = ok(await as(tenant, 'admin').callTool('ac_book_find_many', { include: ['author'] }))[
            'items'
          ] as Row[];
          expect((adminBooks[0]!['author'] as Row)['email']).toBe(tenant === 'a' ? 'ann@a.test' : 'bob@b.test');
        }
      });

      it('a two-level include is not an argument the tool takes', async () => {
        const refused = problem(await as('a', 'reader').callTool('ac_review_find_many', { include: ['book.author'] }));
        expect(named(refused)).toEqual(['include.0']);
      });

      it('a blocked caller gets no book through a review’s include, and no book tool answers it', async () => {
        const page = ok(await as('a', 'blocked').callTool('ac_review_find_many', { include: ['book'] }));
        const items = page['items'] as Row[];
        expect(items).toHaveLength(1);
        expect(items[0]!['book']).toBeNull();
        expect(problem(await as('a', 'blocked').callTool('ac_book_find_many', {})).code).toBe('SVC_FORBIDDEN');
      });
    });
  });
});
