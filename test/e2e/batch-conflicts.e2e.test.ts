/**
 * A batch refused by a unique violation names the items that caused it (`errors[].field` `[1].isbn`), whatever the
 * database reports of a multi-row statement, on REST, GraphQL and MCP alike; the whole batch is rolled back, and a
 * one-row write keeps its own answer.
 */
import type { EntityConfig, PolicyFunction } from '@svc/core';
import request from 'supertest';
import { Column, DeleteDateColumn, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { svcController } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { startMcpApp, type McpApp } from './support/mcp-app';
import { connectMcp, type McpTestClient } from './support/mcp-clients';
import { callerOf } from './support/mcp-fixtures';
import { expectProblem } from './support/e2e-http';

@Entity('bc_book')
@Unique('UQ_bc_book_place', ['shelf', 'position'])
class Book {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 100 }) title!: string;
  @Column({ type: 'varchar', length: 20, nullable: true, unique: true }) isbn!: string | null;
  @Column({ type: 'varchar', length: 20, nullable: true, unique: true }) code!: string | null;
  @Column({ type: 'varchar', length: 20, nullable: true }) shelf!: string | null;
  @Column({ type: 'int', nullable: true }) position!: number | null;
  @Column({ type: 'int', default: 0 }) pages!: number;
  @DeleteDateColumn({ nullable: true }) deletedAt!: Date | null;
}

const tenantOf = (context: Parameters<PolicyFunction>[0]['context']) => callerOf(context)?.tenant ?? 'nobody';

const scoped = (extra: EntityConfig): EntityConfig => ({
  ...extra,
  filter: { fields: ['title', 'pages', 'isbn'], apply: ({ context }) => ({ tenant: { eq: tenantOf(context) } }) },
  set: { create: ({ context }) => ({ tenant: tenantOf(context) }) },
  schema: {
    input: {
      create: ['title', 'isbn', 'code', 'shelf', 'position', 'pages'],
      patch: ['title', 'isbn', 'shelf', 'position', 'pages'],
    },
  },
});

describe.each(TEST_DATABASES)('A unique conflict in a batch on $name', (db) => {
  let t: McpApp;
  let http: ReturnType<McpApp['app']['getHttpServer']>;

  beforeAll(async () => {
    t = await startMcpApp({
      db,
      suite: 'e2e_batch_conflicts',
      entities: [Book],
      controllers: [
        svcController('books', Book, scoped({ batch: { create: true, update: true } })),
        svcController(
          'upsert-books',
          Book,
          scoped({
            batch: { create: { onConflict: { target: ['code'], update: ['title', 'isbn', 'shelf', 'position'] } } },
          }),
        ),
      ],
      svc: { graphql: true },
    });
    http = t.app.getHttpServer();
  });

  afterAll(async () => {
    await t?.close();
  });

  beforeEach(async () => {
    await t.dataSource.getRepository(Book).createQueryBuilder().delete().execute();
  });

  const as = (tenant: string, req: request.Test) => req.set('x-user', `user:${tenant}:editor`);
  const stored = async () =>
    (await t.dataSource.getRepository(Book).find({ withDeleted: true, order: { id: 'ASC' } })).map((row) => ({
      title: row.title,
      isbn: row.isbn,
      code: row.code,
      shelf: row.shelf,
      position: row.position,
    }));
  const seed = (rows: Partial<Book>[]) =>
    t.dataSource.getRepository(Book).save(rows.map((row) => ({ tenant: 'a', title: 'stored', ...row })));
  const fieldsOf = (problem: { errors?: readonly { field?: string }[] }) => problem.errors?.map((entry) => entry.field);

  describe('createMany (POST /books/batch)', () => {
    it('names the item that repeats a stored isbn ([1].isbn) and writes nothing', async () => {
      await seed([{ isbn: 'S-1' }]);
      const before = await stored();
      const res = await as('a', request(http).post('/books/batch')).send([
        { title: 'fine', isbn: 'N-1' },
        { title: 'clash', isbn: 'S-1' },
        { title: 'also fine' },
      ]);
      const problem = expectProblem(res, 409, 'SVC_CONFLICT');
      expect(problem.errors).toEqual([
        { field: '[1].isbn', code: 'duplicate', detail: expect.stringContaining('Another Book already has this isbn') },
      ]);
      expect(problem.detail).toMatch(/^Item \[1\]: .*isbn.* Nothing was written\.$/);
      expect(await stored()).toEqual(before);
    });

    it('names every item that repeats a stored value, so a client can fix them all at once', async () => {
      await seed([{ isbn: 'S-1' }, { isbn: 'S-2' }]);
      const res = await as('a', request(http).post('/books/batch')).send([
        { title: 'first clash', isbn: 'S-2' },
        { title: 'fine', isbn: 'N-1' },
        { title: 'second clash', isbn: 'S-1' },
      ]);
      const problem = expectProblem(res, 409, 'SVC_CONFLICT');
      expect(fieldsOf(problem)).toEqual(['[0].isbn', '[2].isbn']);
      expect(problem.detail).toContain('(and 1 more item)');
      expect(await stored()).toHaveLength(2);
    });

    it('names the later of two items that repeat each other', async () => {
      const res = await as('a', request(http).post('/books/batch')).send([
        { title: 'first', isbn: 'D-1' },
        { title: 'fine', isbn: 'N-1' },
        { title: 'repeat', isbn: 'D-1' },
      ]);
      const problem = expectProblem(res, 409, 'SVC_CONFLICT');
      expect(problem.errors).toEqual([
        { field: '[2].isbn', code: 'duplicate', detail: expect.stringContaining('item [0]') },
      ]);
      expect(await stored()).toEqual([]);
    });

    it('names each column of a composite unique set', async () => {
      await seed([{ shelf: 'A', position: 1 }]);
      const res = await as('a', request(http).post('/books/batch')).send([
        { title: 'next to it', shelf: 'A', position: 2 },
        { title: 'on its place', shelf: 'A', position: 1 },
      ]);
      const problem = expectProblem(res, 409, 'SVC_CONFLICT');
      expect(fieldsOf(problem)).toEqual(['[1].shelf', '[1].position']);
      expect(problem.errors?.[0]?.detail).toContain('this combination of shelf, position');
      expect(await stored()).toHaveLength(1);
    });

    it("names an item that repeats a soft-deleted row's or another tenant's value: the unique index holds them too", async () => {
      await seed([
        { tenant: 'b', isbn: 'B-1' },
        { isbn: 'G-1', deletedAt: new Date() },
      ]);
      const res = await as('a', request(http).post('/books/batch')).send([
        { title: 'theirs', isbn: 'B-1' },
        { title: 'gone', isbn: 'G-1' },
      ]);
      const problem = expectProblem(res, 409, 'SVC_CONFLICT');
      expect(fieldsOf(problem)).toEqual(['[0].isbn', '[1].isbn']);
      expect(await stored()).toHaveLength(2);
    });

    if (db.name === 'mysql') {
      it('names an item whose isbn differs from a stored one only in case, under a collation that ignores case', async () => {
        await seed([{ isbn: 'CASE-1' }]);
        const res = await as('a', request(http).post('/books/batch')).send([
          { title: 'fine', isbn: 'N-1' },
          { title: 'lower', isbn: 'case-1' },
        ]);
        const problem = expectProblem(res, 409, 'SVC_CONFLICT');
        expect(fieldsOf(problem)).toEqual(['[1].isbn']);
        expect(await stored()).toHaveLength(1);
      });
    }
  });

  describe('createMany as an upsert on code', () => {
    it("names a matched item whose update takes another row's isbn, and leaves every row as it was", async () => {
      await seed([
        { code: 'C-1', isbn: 'I-1', title: 'one' },
        { code: 'C-2', isbn: 'I-2', title: 'two' },
      ]);
      const before = await stored();
      const res = await as('a', request(http).post('/upsert-books/batch')).send([
        { code: 'C-3', title: 'new' },
        { code: 'C-1', title: 'renamed', isbn: 'I-2' },
      ]);
      const problem = expectProblem(res, 409, 'SVC_CONFLICT');
      expect(fieldsOf(problem)).toEqual(['[1].isbn']);
      expect(await stored()).toEqual(before);
    });

    it('names a created item that collides on another unique set than the target, not the matched one', async () => {
      await seed([
        { code: 'C-1', isbn: 'I-1', shelf: 'A', position: 1 },
        { code: 'C-2', isbn: 'I-2' },
      ]);
      const before = await stored();
      const res = await as('a', request(http).post('/upsert-books/batch')).send([
        { code: 'C-1', title: 'keeps its own isbn and place', isbn: 'I-1', shelf: 'A', position: 1 },
        { code: 'C-9', title: 'on its place', shelf: 'A', position: 1 },
      ]);
      const problem = expectProblem(res, 409, 'SVC_CONFLICT');
      expect(fieldsOf(problem)).toEqual(['[1].shelf', '[1].position']);
      expect(await stored()).toEqual(before);
    });

    it('names a matched item that takes the isbn a created item of the same batch takes first', async () => {
      await seed([{ code: 'C-1', isbn: 'I-1' }]);
      const res = await as('a', request(http).post('/upsert-books/batch')).send([
        { code: 'C-5', title: 'new', isbn: 'I-5' },
        { code: 'C-1', title: 'changed', isbn: 'I-5' },
      ]);
      const problem = expectProblem(res, 409, 'SVC_CONFLICT');
      expect(problem.errors).toEqual([
        { field: '[1].isbn', code: 'duplicate', detail: expect.stringContaining('item [0]') },
      ]);
      expect(await stored()).toEqual([{ title: 'stored', isbn: 'I-1', code: 'C-1', shelf: null, position: null }]);
    });
  });

  describe('updateMany (PATCH /books?filter=...)', () => {
    it('names the patch field that would give several matched rows one isbn, and changes nothing', async () => {
      await seed([
        { title: 'x', pages: 1 },
        { title: 'y', pages: 1 },
      ]);
      const res = await as('a', request(http).patch('/books?filter[pages][eq]=1')).send({ isbn: 'U-1' });
      const problem = expectProblem(res, 409, 'SVC_CONFLICT');
      expect(problem.errors).toEqual([
        { field: 'isbn', code: 'duplicate', detail: expect.stringContaining('2 matched Book rows') },
      ]);
      expect((await stored()).map((row) => row.isbn)).toEqual([null, null]);
    });

    it('names the patch field whose value another row holds', async () => {
      await seed([
        { title: 'x', pages: 1 },
        { title: 'holder', isbn: 'U-1', pages: 2 },
      ]);
      const res = await as('a', request(http).patch('/books?filter[pages][eq]=1')).send({ isbn: 'U-1' });
      const problem = expectProblem(res, 409, 'SVC_CONFLICT');
      expect(problem.errors).toEqual([
        { field: 'isbn', code: 'duplicate', detail: expect.stringContaining('Another Book already has this isbn') },
      ]);
      expect((await stored()).map((row) => row.isbn)).toEqual([null, 'U-1']);
    });
  });

  describe('a one-row write', () => {
    it('keeps its answer: 409 naming the column in the detail, and the field in errors[]', async () => {
      await seed([{ isbn: 'S-1' }]);
      const res = await as('a', request(http).post('/books')).send({ title: 'clash', isbn: 'S-1' });
      const problem = expectProblem(res, 409, 'SVC_CONFLICT');
      expect(problem.detail).toBe(
        'Another Book already has this isbn. Use a different value, or update the existing Book.',
      );
      expect(problem.errors).toEqual([{ field: 'isbn', code: 'duplicate', detail: problem.detail }]);
      expect(problem.params).toBeUndefined();
    });
  });

  describe('on GraphQL', () => {
    it('createBooks answers the same problem, naming the item', async () => {
      await seed([{ isbn: 'S-1' }]);
      const res = await as('a', request(http).post('/graphql')).send({
        query: 'mutation($input: [BookCreateInput!]!) { createBooks(input: $input) { total } }',
        variables: { input: [{ title: 'fine' }, { title: 'clash', isbn: 'S-1' }] },
      });
      const [error] = res.body.errors ?? [];
      expect(error?.extensions?.code).toBe('SVC_CONFLICT');
      expect(fieldsOf(error?.extensions?.problem ?? {})).toEqual(['[1].isbn']);
      expect(await stored()).toHaveLength(1);
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

    it('book_create_many answers the same problem as a tool error, naming the item', async () => {
      await seed([{ isbn: 'S-1' }]);
      const res = await client.callTool('book_create_many', {
        data: [{ title: 'fine' }, { title: 'clash', isbn: 'S-1' }],
      });
      expect(res.isError).toBe(true);
      expect(res.structuredContent).toMatchObject({ code: 'SVC_CONFLICT' });
      expect(fieldsOf(res.structuredContent as { errors?: { field?: string }[] })).toEqual(['[1].isbn']);
      expect(await stored()).toHaveLength(1);
    });
  });
});
