/**
 * Batch writes (`createMany` with upsert, `updateMany`, `deleteMany`) on two tenants of one database: every rule of a
 * one-row write holds per item or per matched row, a refusal anywhere leaves the database as it was, the bounds are
 * refused before any write, and REST, GraphQL and MCP serve the same three operations.
 */
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { EntityConfig, PolicyFunction, RealtimeEvent } from '@svc/core';
import { sse } from '@svc/sse';
import { EventSource } from 'eventsource';
import request from 'supertest';
import { Column, DeleteDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { bootstrapFailure, svcController } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { startMcpApp, type McpApp } from './support/mcp-app';
import { connectMcp, type McpTestClient } from './support/mcp-clients';
import { callerOf } from './support/mcp-fixtures';
import { expectProblem } from './support/e2e-http';
import { dereferenced, validateOpenApi } from '../support/openapi-checks';

@Entity('bw_author')
class BatchAuthor {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 60 }) name!: string;
}

@Entity('bw_book')
class BatchBook {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 100 }) title!: string;
  @Column({ type: 'varchar', length: 20, nullable: true, unique: true }) isbn!: string | null;
  @Column({ type: 'int', default: 0 }) pages!: number;
  @Column({ type: 'boolean', default: false }) locked!: boolean;
  @Column({ type: 'int', nullable: true }) authorId!: number | null;
  @ManyToOne(() => BatchAuthor, { nullable: true, onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'authorId' })
  author!: BatchAuthor | null;
  @DeleteDateColumn({ nullable: true }) deletedAt!: Date | null;
}

const tenantOf = (context: Parameters<PolicyFunction>[0]['context']) => callerOf(context)?.tenant ?? 'nobody';

/** Readers are refused every operation; others are refused titles it forbids and rows it locks (locked). */
const policy: PolicyFunction = ({ body, entity, context }) => {
  if (callerOf(context)?.role === 'reader') return false;
  if (entity?.['locked'] === true) return false;
  return (body as { title?: unknown } | undefined)?.title !== 'forbidden';
};

const scoped = (extra: EntityConfig): EntityConfig => ({
  ...extra,
  filter: { ...extra.filter, apply: ({ context }) => ({ tenant: { eq: tenantOf(context) } }) },
  set: { create: ({ context }) => ({ tenant: tenantOf(context) }) },
});

const BOOKS = scoped({
  policy,
  realtime: {},
  filter: { fields: ['title', 'pages', 'isbn', 'locked', 'author.name'] },
  schema: {
    input: { create: ['title', 'isbn', 'pages', 'locked', 'authorId'], patch: ['title', 'pages', 'authorId'] },
  },
  batch: {
    create: { onConflict: { target: ['isbn'], update: ['title', 'pages'] } },
    update: true,
    delete: true,
    maxItems: 5,
    maxAffected: 5,
  },
});

describe.each(TEST_DATABASES)('Batch writes on $name', (db) => {
  let t: McpApp;
  let http: ReturnType<McpApp['app']['getHttpServer']>;
  const authors: Record<string, number> = {};

  beforeAll(async () => {
    t = await startMcpApp({
      db,
      suite: 'e2e_batch_writes',
      entities: [BatchAuthor, BatchBook],
      controllers: [
        svcController('authors', BatchAuthor, scoped({ schema: { input: { create: ['name'] } } })),
        svcController('books', BatchBook, BOOKS),
        // The one-row operations' own rules: deleteOne's admin-only policy holds deleteMany too.
        svcController(
          'guarded-books',
          BatchBook,
          scoped({
            operations: {
              findMany: true,
              createOne: true,
              patchOne: true,
              deleteOne: { policy: ({ context }) => callerOf(context)?.role === 'admin' },
            },
            batch: { update: true, delete: true },
          }),
        ),
        // An upsert that updates every field an item sends: still only what the patch slot takes, never set.create's.
        svcController('all-books', BatchBook, {
          ...scoped({
            schema: { input: { create: ['title', 'isbn', 'pages', 'locked'], patch: ['title', 'pages'] } },
            batch: { create: { onConflict: { target: ['isbn'], update: 'all' } } },
          }),
          set: {
            create: ({ context }) => ({ tenant: tenantOf(context), locked: true }),
            update: () => ({ pages: 42 }),
          },
        }),
        // Unscoped and cached: a batch drops the cached reads once, so the next list sees every row it wrote.
        svcController('cached-books', BatchBook, {
          cache: { ttl: 60 },
          delete: { strategy: 'hard' },
          batch: { create: true, delete: true },
        }),
      ],
      svc: { graphql: true, realtimeTransports: [sse({ heartbeatMs: 1000 })] },
    });
    http = t.app.getHttpServer();
    const repo = t.dataSource.getRepository(BatchAuthor);
    authors['a'] = (await repo.save({ tenant: 'a', name: 'Ann' })).id;
    authors['b'] = (await repo.save({ tenant: 'b', name: 'Bob' })).id;
  });

  afterAll(async () => {
    await t?.close();
  });

  beforeEach(async () => {
    await t.dataSource.getRepository(BatchBook).createQueryBuilder().delete().execute();
  });

  const as = (tenant: string, req: request.Test) => req.set('x-user', `user:${tenant}:editor`);
  const books = () => t.dataSource.getRepository(BatchBook).find({ withDeleted: true, order: { id: 'ASC' } });
  const seed = (rows: Partial<BatchBook>[]) =>
    t.dataSource.getRepository(BatchBook).save(rows.map((row) => ({ tenant: 'a', pages: 0, ...row })));

  describe('createMany (POST /books/batch)', () => {
    it('creates every item in one transaction and answers 201 with the stored rows in input order', async () => {
      const res = await as('a', request(http).post('/books/batch')).send([
        { title: 'One', pages: 10 },
        { title: 'Two', pages: 20, authorId: authors['a'] },
      ]);
      expect(res.status).toBe(201);
      expect(res.body.total).toBe(2);
      expect(res.body.items.map((item: { title: string }) => item.title)).toEqual(['One', 'Two']);
      expect(res.body.meta).toEqual({ created: 2, updated: 0 });
      const stored = await books();
      expect(stored.map((row) => [row.title, row.tenant])).toEqual([
        ['One', 'a'],
        ['Two', 'a'],
      ]);
      expect(res.body.items.map((item: { id: number }) => item.id)).toEqual(stored.map((row) => row.id));
    });

    it('refuses an invalid item with 400 naming it by index ([1].title), and writes nothing', async () => {
      const res = await as('a', request(http).post('/books/batch')).send([{ title: 'Fine' }, { pages: 3 }]);
      const problem = expectProblem(res, 400, 'SVC_VALIDATION_FAILED');
      expect(problem.errors?.map((entry) => entry.field)).toContain('[1].title');
      expect(await books()).toEqual([]);
    });

    it('refuses more than maxItems with 400 SVC_BATCH_TOO_LARGE naming the limit and the count, before any write', async () => {
      const items = Array.from({ length: 6 }, (_, i) => ({ title: `T${i}` }));
      const problem = expectProblem(
        await as('a', request(http).post('/books/batch')).send(items),
        400,
        'SVC_BATCH_TOO_LARGE',
      );
      expect(problem.params).toEqual({ limit: 'batch.maxItems', max: 5, count: 6 });
      expect(await books()).toEqual([]);
    });

    it('refuses a batch body over the JSON body limit as SVC_BATCH_TOO_LARGE naming the limit and the size', async () => {
      // Three items, each far too long: the body parser stops at its limit (Express's 100 kB, Fastify's bodyLimit)
      // before any item is read.
      const items = Array.from({ length: 3 }, () => ({ title: 'x'.repeat(400_000) }));
      const body = JSON.stringify(items);
      const res = await as('a', request(http).post('/books/batch')).set('Content-Type', 'application/json').send(body);
      const problem = expectProblem(res, 400, 'SVC_BATCH_TOO_LARGE');
      expect(problem.params).toEqual({ limit: 'bodyLimit', max: expect.any(Number), count: Buffer.byteLength(body) });
      expect((problem.params as { max: number }).max).toBeLessThan(Buffer.byteLength(body));
      expect(problem.detail).toMatch(/at most 5/);
      expect(await books()).toEqual([]);
      // A single row's body over the limit is still 413.
      const one = await as('a', request(http).post('/books')).send({ title: 'x'.repeat(1_200_000) });
      expectProblem(one, 413, 'SVC_PAYLOAD_TOO_LARGE');
    });

    it('refuses a body that is not a non-empty array with 400', async () => {
      expectProblem(
        await as('a', request(http).post('/books/batch')).send({ title: 'x' }),
        400,
        'SVC_VALIDATION_FAILED',
      );
      expectProblem(await as('a', request(http).post('/books/batch')).send([]), 400, 'SVC_VALIDATION_FAILED');
    });

    it('asks the policy per item: one refused item in the middle refuses the batch (403 naming [1]) with nothing written', async () => {
      const res = await as('a', request(http).post('/books/batch')).send([
        { title: 'ok' },
        { title: 'forbidden' },
        { title: 'ok too' },
      ]);
      const problem = expectProblem(res, 403, 'SVC_FORBIDDEN');
      expect(problem.errors?.[0]?.field).toBe('[1]');
      expect(await books()).toEqual([]);
    });

    it("answers a reference to the other tenant's author as a missing one (422) and writes nothing", async () => {
      const res = await as('a', request(http).post('/books/batch')).send([
        { title: 'mine', authorId: authors['a'] },
        { title: 'theirs', authorId: authors['b'] },
      ]);
      expectProblem(res, 422, 'SVC_UNRESOLVED_RELATION');
      expect(await books()).toEqual([]);
    });

    it('refuses If-Match with 412 SVC_PRECONDITION_UNSUPPORTED', async () => {
      const res = await as('a', request(http).post('/books/batch'))
        .set('if-match', '"x"')
        .send([{ title: 'x' }]);
      expectProblem(res, 412, 'SVC_PRECONDITION_UNSUPPORTED');
    });

    describe('as an upsert on isbn', () => {
      it('updates the configured fields of a matching row and creates the rest: 200 with created and updated', async () => {
        const [existing] = await seed([{ title: 'Old', isbn: 'X-1', pages: 1, locked: false }]);
        const res = await as('a', request(http).post('/books/batch')).send([
          { title: 'New title', isbn: 'X-1', pages: 99, locked: true },
          { title: 'Fresh', isbn: 'X-2' },
        ]);
        expect(res.status).toBe(200);
        expect(res.body.meta).toEqual({ created: 1, updated: 1 });
        expect(res.body.items[0]).toMatchObject({ id: existing!.id, title: 'New title', pages: 99, locked: false });
        const stored = await books();
        expect(stored.map((row) => [row.isbn, row.title, row.pages, row.locked])).toEqual([
          ['X-1', 'New title', 99, false],
          ['X-2', 'Fresh', 0, false],
        ]);
      });

      it("never touches the other tenant's row with the same isbn: refused like a missing row (404 naming the item)", async () => {
        await seed([{ tenant: 'b', title: 'Theirs', isbn: 'B-1', pages: 5 }]);
        const res = await as('a', request(http).post('/books/batch')).send([
          { title: 'Mine', isbn: 'A-9' },
          { title: 'Hijack', isbn: 'B-1', pages: 1 },
        ]);
        const problem = expectProblem(res, 404, 'SVC_NOT_FOUND');
        expect(problem.errors?.[0]?.field).toBe('[1]');
        expect((await books()).map((row) => [row.tenant, row.title, row.pages])).toEqual([['b', 'Theirs', 5]]);
      });

      it('asks the policy with the matched row: a locked row refuses the batch, nothing written', async () => {
        await seed([{ title: 'Locked', isbn: 'L-1', locked: true }]);
        const res = await as('a', request(http).post('/books/batch')).send([
          { title: 'New', isbn: 'N-1' },
          { title: 'Change', isbn: 'L-1' },
        ]);
        expectProblem(res, 403, 'SVC_FORBIDDEN');
        expect((await books()).map((row) => row.title)).toEqual(['Locked']);
      });

      it('refuses two items naming one isbn with 400, naming the second', async () => {
        const res = await as('a', request(http).post('/books/batch')).send([
          { title: 'a', isbn: 'D-1' },
          { title: 'b', isbn: 'D-1' },
        ]);
        const problem = expectProblem(res, 400, 'SVC_VALIDATION_FAILED');
        expect(problem.errors?.[0]?.field).toBe('[1].isbn');
        expect(await books()).toEqual([]);
      });
    });
  });

  describe('updateMany (PATCH /books?filter=...)', () => {
    it("changes the caller's matching rows only and answers them after, with the total", async () => {
      await seed([
        { title: 'a-big', pages: 300 },
        { title: 'a-small', pages: 10 },
        { tenant: 'b', title: 'b-big', pages: 300 },
      ]);
      const res = await as('a', request(http).patch('/books?filter[pages][gte]=100')).send({ title: 'changed' });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(1);
      expect(res.body.items).toEqual([expect.objectContaining({ title: 'changed', pages: 300 })]);
      expect((await books()).map((row) => [row.tenant, row.title])).toEqual([
        ['a', 'changed'],
        ['a', 'a-small'],
        ['b', 'b-big'],
      ]);
    });

    it('requires a filter: none is 400 naming filter, and no row changes', async () => {
      await seed([{ title: 'keep' }]);
      const problem = expectProblem(
        await as('a', request(http).patch('/books')).send({ title: 'x' }),
        400,
        'SVC_QUERY_INVALID',
      );
      expect(problem.errors?.[0]?.param).toBe('filter');
      expect((await books()).map((row) => row.title)).toEqual(['keep']);
    });

    it('refuses list parameters other than the filter (sort, limit), naming them', async () => {
      const res = await as('a', request(http).patch('/books?filter[pages][gte]=0&sort=title')).send({ title: 'x' });
      const problem = expectProblem(res, 400, 'SVC_QUERY_UNSUPPORTED_PARAM');
      expect(problem.errors?.map((entry) => entry.param)).toEqual(['sort']);
    });

    it('refuses a filter outside the allowlist with 400, as a list does', async () => {
      const res = await as('a', request(http).patch('/books?filter[tenant][eq]=b')).send({ title: 'x' });
      expectProblem(res, 400, 'SVC_QUERY_INVALID');
    });

    it('refuses a filter matching more than maxAffected rows before any change, naming the count', async () => {
      await seed(Array.from({ length: 7 }, (_, i) => ({ title: `t${i}`, pages: 1 })));
      const problem = expectProblem(
        await as('a', request(http).patch('/books?filter[pages][eq]=1')).send({ pages: 2 }),
        400,
        'SVC_BATCH_TOO_LARGE',
      );
      expect(problem.params).toEqual({ limit: 'batch.maxAffected', max: 5, count: 7 });
      expect((await books()).every((row) => row.pages === 1)).toBe(true);
    });

    it('asks the policy per matched row: one locked row refuses the batch and nothing changes', async () => {
      await seed([
        { title: 'free', pages: 5 },
        { title: 'locked', pages: 5, locked: true },
      ]);
      const res = await as('a', request(http).patch('/books?filter[pages][eq]=5')).send({ pages: 6 });
      expectProblem(res, 403, 'SVC_FORBIDDEN');
      expect((await books()).map((row) => row.pages)).toEqual([5, 5]);
    });

    it('answers 200 with no items when the filter matches nothing', async () => {
      const res = await as('a', request(http).patch('/books?filter[title][eq]=none')).send({ pages: 1 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ items: [], total: 0 });
    });

    it('leaves no partial write among concurrent batches on the same rows: each answers 200 or 503 with Retry-After', async () => {
      await seed(Array.from({ length: 5 }, (_, i) => ({ title: `c${i}`, pages: 0 })));
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          as('a', request(http).patch('/books?filter[pages][lte]=1000')).send({ pages: 100 + i }),
        ),
      );
      for (const res of answers) {
        expect([200, 503]).toContain(res.status);
        if (res.status === 503) expect(res.headers['retry-after']).toBeDefined();
      }
      const pages = new Set((await books()).map((row) => row.pages));
      expect(pages.size).toBe(1);
    });
  });

  describe('deleteMany (DELETE /books?filter=...)', () => {
    it("soft-deletes the caller's matching rows only and answers their keys", async () => {
      const [a1, , b1] = await seed([
        { title: 'gone', pages: 1 },
        { title: 'kept', pages: 2 },
        { tenant: 'b', title: 'gone', pages: 1 },
      ]);
      const res = await as('a', request(http).delete('/books?filter[title][eq]=gone'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ items: [{ id: a1!.id }], total: 1 });
      const stored = await books();
      expect(stored.find((row) => row.id === a1!.id)?.deletedAt).not.toBeNull();
      expect(stored.find((row) => row.id === b1!.id)?.deletedAt).toBeNull();
      const listed = await as('a', request(http).get('/books'));
      expect(listed.body.items.map((item: { title: string }) => item.title)).toEqual(['kept']);
    });

    it('requires a filter', async () => {
      expectProblem(await as('a', request(http).delete('/books')), 400, 'SVC_QUERY_INVALID');
    });
  });

  describe('by a caller the policy refuses outright', () => {
    const asReader = (req: request.Test) => req.set('x-user', 'user:a:reader');
    const WHETHER = [
      ['matches rows', 5],
      ['matches none', 99],
    ] as const;

    it.each(WHETHER)('refuses updateMany with 403 whether the filter %s, and nothing changes', async (_, pages) => {
      await seed([{ title: 'mine', pages: 5 }]);
      const res = await asReader(request(http).patch(`/books?filter[pages][eq]=${pages}`)).send({ pages: 6 });
      expectProblem(res, 403, 'SVC_FORBIDDEN');
      expect((await books()).map((row) => row.pages)).toEqual([5]);
    });

    it.each(WHETHER)('refuses deleteMany with 403 whether the filter %s, and nothing changes', async (_, pages) => {
      await seed([{ title: 'mine', pages: 5 }]);
      expectProblem(await asReader(request(http).delete(`/books?filter[pages][eq]=${pages}`)), 403, 'SVC_FORBIDDEN');
      expect((await books()).map((row) => row.deletedAt)).toEqual([null]);
    });

    it.each(WHETHER)('refuses a patch the policy refuses by its body whether the filter %s', async (_, pages) => {
      await seed([{ title: 'mine', pages: 5 }]);
      const res = await as('a', request(http).patch(`/books?filter[pages][eq]=${pages}`)).send({ title: 'forbidden' });
      expectProblem(res, 403, 'SVC_FORBIDDEN');
      expect((await books()).map((row) => row.title)).toEqual(['mine']);
    });

    it("refuses deleteOne's own policy on deleteMany whether or not the filter matches", async () => {
      await seed([{ title: 'keep', pages: 1 }]);
      for (const pages of [1, 99]) {
        const refused = await as('a', request(http).delete(`/guarded-books?filter[pages][eq]=${pages}`));
        expectProblem(refused, 403, 'SVC_FORBIDDEN');
      }
      expect((await books())[0]?.deletedAt).toBeNull();
    });
  });

  describe('realtime events', () => {
    const open: EventSource[] = [];

    afterEach(() => {
      for (const source of open.splice(0)) source.close();
    });

    /** Every event a tenant's stream receives, in order. */
    async function subscribe(tenant: string): Promise<{ type: string; data: RealtimeEvent }[]> {
      const events: { type: string; data: RealtimeEvent }[] = [];
      const source = new EventSource(t.url.replace(/\/mcp$/, '/books/events'), {
        fetch: (input, init) =>
          fetch(input, {
            ...init,
            headers: { ...(init?.headers as Record<string, string>), 'x-user': `user:${tenant}:editor` },
          }),
      });
      open.push(source);
      for (const type of ['created', 'patched', 'deleted']) {
        source.addEventListener(type, (message) => events.push({ type, data: JSON.parse(message.data) }));
      }
      await new Promise<void>((resolve, reject) => {
        source.onopen = () => resolve();
        source.onerror = (error) => reject(new Error(`the stream did not open: ${String(error.message)}`));
      });
      return events;
    }

    async function eventually(check: () => boolean, what: string): Promise<void> {
      const until = Date.now() + 5000;
      while (!check()) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }

    it("publishes one event per changed row after commit, to the writer's tenant only", async () => {
      const [a, b] = [await subscribe('a'), await subscribe('b')];
      const created = await as('a', request(http).post('/books/batch')).send([{ title: 'e1' }, { title: 'e2' }]);
      expect(created.status).toBe(201);
      await as('a', request(http).patch('/books?filter[title][startsWith]=e')).send({ pages: 4 }).expect(200);
      await as('a', request(http).delete('/books?filter[title][startsWith]=e')).expect(200);
      await eventually(() => a.length === 6, 'six events');
      expect(a.map((event) => [event.type, event.data.item?.['title'] ?? null])).toEqual([
        ['created', 'e1'],
        ['created', 'e2'],
        ['patched', 'e1'],
        ['patched', 'e2'],
        ['deleted', null],
        ['deleted', null],
      ]);
      // A refused batch publishes nothing.
      await as('a', request(http).post('/books/batch'))
        .send([{ title: 'e3' }, { title: 'forbidden' }])
        .expect(403);
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(a).toHaveLength(6);
      expect(b).toEqual([]);
    });
  });

  describe("the one-row operation's own rules", () => {
    it("hold deleteOne's own policy on deleteMany: an editor is refused, an admin deletes", async () => {
      await seed([{ title: 'keep', pages: 1 }]);
      const refused = await as('a', request(http).delete('/guarded-books?filter[pages][eq]=1'));
      expectProblem(refused, 403, 'SVC_FORBIDDEN');
      expect((await books())[0]?.deletedAt).toBeNull();
      const admin = await request(http).delete('/guarded-books?filter[pages][eq]=1').set('x-user', 'root:a:admin');
      expect(admin.status).toBe(200);
    });

    it("change a matched upsert row as a patch would: the patch slot's fields and set.update, never set.create's", async () => {
      const [existing] = await seed([{ title: 'Old', isbn: 'ALL-1', pages: 1, locked: false }]);
      const res = await as('a', request(http).post('/all-books/batch')).send([
        { title: 'New', isbn: 'ALL-1', pages: 5, locked: true },
      ]);
      expect(res.status).toBe(200);
      const stored = await t.dataSource.getRepository(BatchBook).findOneByOrFail({ id: existing!.id });
      expect([stored.title, stored.pages, stored.locked, stored.tenant]).toEqual(['New', 42, false, 'a']);
    });

    it.each([
      [{ batch: { creat: true } }, /batch\.creat.*not a batch key.*create/s],
      [{ batch: { update: 'yes' } }, /batch\.update.*true or false/s],
      [{ batch: { delete: true, maxAffected: 0 } }, /batch\.maxAffected.*from 1 to 10000/s],
      [{ batch: { create: true, maxItems: 10_001 } }, /batch\.maxItems.*from 1 to 10000/s],
      [
        { batch: { create: { onConflict: { target: ['title'], update: 'all' } } } },
        /target.*\[title\].*not keep unique/s,
      ],
      [
        { batch: { create: { onConflict: { target: ['isbnn'], update: 'all' } } } },
        /target.*'isbnn'.*Did you mean 'isbn'/s,
      ],
      [
        { batch: { create: { onConflict: { target: ['isbn'], update: ['isbn'] } } } },
        /update.*'isbn'.*outside the target/s,
      ],
      [{ batch: { create: { onConflict: { target: ['isbn'] } } } }, /onConflict\.update.*'all' or 'none'/s],
      [{ operations: { findMany: true, deleteMany: true } }, /operations\.deleteMany.*off unless batch\.delete/s],
      [
        // A replacement handler of the one-row operation, which a batch would bypass.
        { operations: { createOne: { handler: async () => ({ id: 1 }) }, findMany: true }, batch: { create: true } },
        /batch\.create.*createOne has a replacement handler/s,
      ],
      [
        {
          schema: { input: { patch: ['title'] } },
          batch: { create: { onConflict: { target: ['isbn'], update: ['pages'] } } },
        },
        /batch\.create\.onConflict\.update.*'pages'/s,
      ],
    ])('refuse to boot on a bad batch block (%j), naming the path', async (config, message) => {
      const error = await bootstrapFailure({
        db,
        suite: 'e2e_batch_writes_boot',
        entities: [BatchAuthor, BatchBook],
        controllers: [svcController('books', BatchBook, config as EntityConfig)],
      });
      expect(error.message).toMatch(message);
    });
  });

  describe('with the result cache and a hard delete', () => {
    it('drops the cached reads once per batch: the next list sees every row written or deleted', async () => {
      const titles = async () =>
        ((await request(http).get('/cached-books?sort=id')).body.items as { title: string }[]).map((i) => i.title);
      expect(await titles()).toEqual([]);
      await request(http)
        .post('/cached-books/batch')
        .send([
          { tenant: 'c', title: 'c1' },
          { tenant: 'c', title: 'c2' },
        ])
        .expect(201);
      expect(await titles()).toEqual(['c1', 'c2']);
      await request(http).delete('/cached-books?filter[title][eq]=c1').expect(200);
      expect(await titles()).toEqual(['c2']);
      // A hard delete (delete.strategy 'hard'): the row is gone from the table, not marked.
      expect((await books()).map((row) => row.title)).toEqual(['c2']);
    });
  });

  describe('in the OpenAPI document', () => {
    it('documents the three routes: the item array with its bound, the required filter and the batch answers', async () => {
      const config = new DocumentBuilder().setOpenAPIVersion('3.1.0').setTitle('batch').setVersion('1').build();
      const document = SwaggerModule.createDocument(t.app, config);
      await validateOpenApi(document);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a dereferenced document, read by path
      const paths = dereferenced(document).paths as Record<string, Record<string, Record<string, any>>>;
      const create = paths['/books/batch']!['post']!;
      expect(create['operationId']).toBe('createManyBatchBooks');
      expect(create['requestBody'].content['application/json'].schema).toMatchObject({ type: 'array', maxItems: 5 });
      expect(Object.keys(create['responses'])).toEqual(expect.arrayContaining(['200', '201', '400', '403', '412']));
      const update = paths['/books']!['patch']!;
      expect(update['operationId']).toBe('updateManyBatchBooks');
      expect(update['parameters'].map((parameter: { name: string }) => parameter.name)).toContain('filter');
      expect(update['parameters'].map((parameter: { name: string }) => parameter.name)).not.toContain('sort');
      const remove = paths['/books']!['delete']!;
      expect(remove['responses']['200'].content['application/json'].schema.properties.items.items).toMatchObject({
        required: ['id'],
      });
    });
  });

  describe('on GraphQL', () => {
    const gql = (tenant: string, query: string, variables?: Record<string, unknown>) =>
      as(tenant, request(http).post('/graphql')).send({ query, variables });

    it('createBooks, updateBooks and deleteBooks run the same operations under the same scope', async () => {
      await seed([{ tenant: 'b', title: 'theirs', pages: 1 }]);
      const created = await gql(
        'a',
        'mutation($input: [BatchBookCreateInput!]!) { createBatchBooks(input: $input) { total created items { title tenant } } }',
        {
          input: [
            { title: 'g1', pages: 1 },
            { title: 'g2', pages: 1 },
          ],
        },
      );
      expect(created.body.errors).toBeUndefined();
      expect(created.body.data.createBatchBooks).toEqual({
        total: 2,
        created: 2,
        items: [
          { title: 'g1', tenant: 'a' },
          { title: 'g2', tenant: 'a' },
        ],
      });
      const updated = await gql(
        'a',
        'mutation { updateBatchBooks(filter: { pages: { eq: 1 } }, input: { pages: 7 }) { total items { title pages } } }',
      );
      expect(updated.body.data.updateBatchBooks.total).toBe(2);
      const deleted = await gql(
        'a',
        'mutation { deleteBatchBooks(filter: { pages: { eq: 7 } }) { total items { id } } }',
      );
      expect(deleted.body.data.deleteBatchBooks.total).toBe(2);
      expect((await books()).map((row) => [row.tenant, row.pages, row.deletedAt === null])).toEqual([
        ['b', 1, true],
        ['a', 7, false],
        ['a', 7, false],
      ]);
    });

    it('refuses updateBooks and deleteBooks to a caller the policy refuses, whether or not the filter matches', async () => {
      await seed([{ title: 'mine', pages: 5 }]);
      const asReader = (query: string) => request(http).post('/graphql').set('x-user', 'user:a:reader').send({ query });
      for (const pages of [5, 99]) {
        const updated = await asReader(
          `mutation { updateBatchBooks(filter: { pages: { eq: ${pages} } }, input: { pages: 6 }) { total } }`,
        );
        expect(updated.body.errors?.[0]?.extensions?.code).toBe('SVC_FORBIDDEN');
        const deleted = await asReader(`mutation { deleteBatchBooks(filter: { pages: { eq: ${pages} } }) { total } }`);
        expect(deleted.body.errors?.[0]?.extensions?.code).toBe('SVC_FORBIDDEN');
      }
      expect((await books()).map((row) => [row.pages, row.deletedAt])).toEqual([[5, null]]);
    });

    it('answers a refused item as an error carrying the problem, with nothing written', async () => {
      const res = await gql(
        'a',
        'mutation($input: [BatchBookCreateInput!]!) { createBatchBooks(input: $input) { total } }',
        { input: [{ title: 'ok' }, { title: 'forbidden' }] },
      );
      expect(res.body.errors?.[0]?.extensions?.code).toBe('SVC_FORBIDDEN');
      expect(await books()).toEqual([]);
    });
  });

  describe('on MCP', () => {
    let client: McpTestClient;

    beforeAll(async () => {
      client = await connectMcp('v2 client, 2026-07-28', { url: t.url, headers: { 'x-user': 'user:a:editor' } });
    });

    afterAll(async () => {
      await client?.close();
    });

    it('lists book_create_many, book_update_many and book_delete_many with their hints', async () => {
      const tools = new Map((await client.listTools()).map((tool) => [tool.name, tool]));
      expect(tools.get('batch_book_create_many')?.annotations).toMatchObject({ readOnlyHint: false });
      expect(tools.get('batch_book_update_many')?.annotations).toMatchObject({ destructiveHint: true });
      expect(tools.get('batch_book_delete_many')?.annotations).toMatchObject({ destructiveHint: true });
      expect(tools.get('batch_book_create_many')?.inputSchema).toMatchObject({
        properties: { data: { type: 'array', maxItems: 5 } },
      });
    });

    it("creates, changes and deletes the caller's rows only", async () => {
      await seed([{ tenant: 'b', title: 'theirs', pages: 3 }]);
      const created = await client.callTool('batch_book_create_many', { data: [{ title: 'm1', pages: 3 }] });
      expect(created.isError).toBeFalsy();
      expect(created.structuredContent).toMatchObject({ total: 1, items: [{ title: 'm1', tenant: 'a' }] });
      const updated = await client.callTool('batch_book_update_many', {
        filter: { pages: { eq: 3 } },
        data: { title: 'm2' },
      });
      expect(updated.structuredContent).toMatchObject({ total: 1 });
      const deleted = await client.callTool('batch_book_delete_many', { filter: { title: { eq: 'm2' } } });
      expect(deleted.structuredContent).toMatchObject({ total: 1 });
      expect((await books()).map((row) => [row.tenant, row.title, row.deletedAt === null])).toEqual([
        ['b', 'theirs', true],
        ['a', 'm2', false],
      ]);
    });

    it('refuses the batch tools to a caller the policy refuses, whether or not the filter matches', async () => {
      await seed([{ title: 'mine', pages: 5 }]);
      const reader = await connectMcp('v2 client, 2026-07-28', { url: t.url, headers: { 'x-user': 'user:a:reader' } });
      try {
        for (const pages of [5, 99]) {
          const filter = { pages: { eq: pages } };
          const updated = await reader.callTool('batch_book_update_many', { filter, data: { pages: 6 } });
          expect(updated.isError).toBe(true);
          expect(updated.structuredContent).toMatchObject({ code: 'SVC_FORBIDDEN', status: 403 });
          const deleted = await reader.callTool('batch_book_delete_many', { filter });
          expect(deleted.isError).toBe(true);
          expect(deleted.structuredContent).toMatchObject({ code: 'SVC_FORBIDDEN', status: 403 });
        }
      } finally {
        await reader.close();
      }
      expect((await books()).map((row) => [row.pages, row.deletedAt])).toEqual([[5, null]]);
    });

    it('refuses a batch over maxItems with SVC_BATCH_TOO_LARGE as a tool error', async () => {
      const data = Array.from({ length: 6 }, (_, i) => ({ title: `x${i}` }));
      const res = await client.callTool('batch_book_create_many', { data });
      expect(res.isError).toBe(true);
      expect(await books()).toEqual([]);
    });
  });
});
