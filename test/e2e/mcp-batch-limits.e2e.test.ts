/**
 * The batch tools' bounds, against REST and GraphQL on every test database: more items than `batch.maxItems` (a batch
 * create, an upsert) or a filter matching more rows than `batch.maxAffected` (a batch change or delete) is refused
 * with the same 400 SVC_BATCH_TOO_LARGE, naming the limit, the maximum and the count, on every surface and in both
 * tool layouts, with nothing written; and the create tool's input schema still tells the agent the bound.
 */
import type { EntityConfig } from '@svc/core';
import request from 'supertest';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { svcController } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import type { Problem } from './support/e2e-http';
import { postGraphql } from './support/graphql-http';
import { startMcpApp, type McpApp } from './support/mcp-app';
import { connectMcp, MCP_CLIENT_KINDS, type McpTestClient, type ToolCallResult } from './support/mcp-clients';

@Entity('mbl_book')
class LimitBook {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 100 }) title!: string;
  @Column({ type: 'int', default: 0 }) pages!: number;
}

/** Written by an upsert: an item whose isbn a row has changes that row. */
@Entity('mbl_edition')
class LimitEdition {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20, unique: true }) isbn!: string;
  @Column({ type: 'varchar', length: 100 }) title!: string;
}

const BOOKS: EntityConfig = {
  filter: { fields: ['pages'] },
  batch: { create: true, update: true, delete: true, maxItems: 3, maxAffected: 3 },
};

const EDITIONS: EntityConfig = {
  batch: { create: { onConflict: { target: ['isbn'], update: ['title'] } }, maxItems: 2 },
};

/** What every surface must agree on. */
type Refusal = { status: number; code: string; params: Record<string, unknown> };

function fromProblem(problem: Partial<Problem> | undefined): Refusal {
  return { status: problem?.status ?? 0, code: problem?.code ?? '', params: { ...problem?.params } };
}

function fromTool(result: ToolCallResult): Refusal {
  expect(result.isError).toBe(true);
  return fromProblem(result.structuredContent as unknown as Problem);
}

const items = (count: number, item: (index: number) => Record<string, unknown>) =>
  Array.from({ length: count }, (_, index) => item(index));

describe.each(TEST_DATABASES)('MCP batch tool bounds, beside REST and GraphQL, on $name', (db) => {
  let entityApp: McpApp;
  let compactApp: McpApp;

  beforeAll(async () => {
    const controllers = () => [
      svcController('books', LimitBook, BOOKS),
      svcController('editions', LimitEdition, EDITIONS),
    ];
    const start = (suite: string, mcp: Parameters<typeof startMcpApp>[0]['mcp']) =>
      startMcpApp({
        db,
        suite,
        entities: [LimitBook, LimitEdition],
        controllers: controllers(),
        svc: { graphql: true },
        mcp,
      });
    entityApp = await start('e2e_mcp_batch_limits', true);
    compactApp = await start('e2e_mcp_batch_limits_compact', { tools: 'compact' });
  });
  afterAll(async () => {
    for (const app of [entityApp, compactApp]) await app?.close();
  });

  const rows = async () => ({
    books: await entityApp.dataSource.getRepository(LimitBook).find({ order: { id: 'ASC' } }),
    editions: await entityApp.dataSource.getRepository(LimitEdition).find({ order: { id: 'ASC' } }),
  });

  describe.each(MCP_CLIENT_KINDS)('with the %s', (kind) => {
    let byEntity: McpTestClient;
    let compact: McpTestClient;
    const http = () => entityApp.app.getHttpServer();
    const graphql = async (query: string, variables?: Record<string, unknown>) => {
      const answer = await postGraphql(http(), { query, ...(variables ? { variables } : {}) });
      return fromProblem(answer.errors?.[0]?.extensions?.problem);
    };

    beforeAll(async () => {
      byEntity = await connectMcp(kind, { url: entityApp.url });
      compact = await connectMcp(kind, { url: compactApp.url });
    });
    afterAll(async () => {
      for (const client of [byEntity, compact]) await client?.close();
    });
    beforeEach(async () => {
      for (const app of [entityApp, compactApp]) {
        for (const target of [LimitBook, LimitEdition])
          await app.dataSource.getRepository(target).createQueryBuilder().delete().execute();
      }
    });

    it('tells the agent the create tool takes at most batch.maxItems items', async () => {
      const tool = (await byEntity.listTools()).find((candidate) => candidate.name === 'limit_book_create_many')!;
      const data = (tool.inputSchema['properties'] as Record<string, Record<string, unknown>>)['data']!;
      expect(data).toMatchObject({ type: 'array', minItems: 1, maxItems: 3 });
      expect(data['description']).toContain('at most 3');
    });

    it('refuses maxItems + 1 items to create with SVC_BATCH_TOO_LARGE on every surface alike', async () => {
      const expected: Refusal = {
        status: 400,
        code: 'SVC_BATCH_TOO_LARGE',
        params: { limit: 'batch.maxItems', max: 3, count: 4 },
      };
      const data = items(4, (index) => ({ title: `b${index}` }));
      const rest = await request(http()).post('/books/batch').send(data);
      expect(fromProblem(rest.body as Problem)).toEqual(expected);
      const mutation = 'mutation($input: [LimitBookCreateInput!]!) { createLimitBooks(input: $input) { total } }';
      expect(await graphql(mutation, { input: data })).toEqual(expected);
      expect(fromTool(await byEntity.callTool('limit_book_create_many', { data }))).toEqual(expected);
      expect(fromTool(await compact.callTool('create_many', { entity: 'LimitBook', data }))).toEqual(expected);
      // Items that are wrong as well are still counted first, as REST counts them (GraphQL's own type check of its
      // input comes before any operation runs, so it is left out here).
      const wrong = items(4, (index) => ({ pages: 'many', other: index }));
      expect(fromProblem((await request(http()).post('/books/batch').send(wrong)).body as Problem)).toEqual(expected);
      expect(fromTool(await byEntity.callTool('limit_book_create_many', { data: wrong }))).toEqual(expected);
      expect(fromTool(await compact.callTool('create_many', { entity: 'LimitBook', data: wrong }))).toEqual(expected);
      expect((await rows()).books).toEqual([]);
      // At the bound, the batch is written.
      const written = await byEntity.callTool('limit_book_create_many', { data: data.slice(0, 3) });
      expect(written.structuredContent).toMatchObject({ total: 3 });
    });

    it('refuses an upsert of maxItems + 1 items alike, changing no row', async () => {
      await entityApp.dataSource.getRepository(LimitEdition).save({ isbn: 'i0', title: 'kept' });
      const expected: Refusal = {
        status: 400,
        code: 'SVC_BATCH_TOO_LARGE',
        params: { limit: 'batch.maxItems', max: 2, count: 3 },
      };
      const data = items(3, (index) => ({ isbn: `i${index}`, title: `e${index}` }));
      expect(fromProblem((await request(http()).post('/editions/batch').send(data)).body as Problem)).toEqual(expected);
      const mutation = 'mutation($input: [LimitEditionCreateInput!]!) { createLimitEditions(input: $input) { total } }';
      expect(await graphql(mutation, { input: data })).toEqual(expected);
      expect(fromTool(await byEntity.callTool('limit_edition_create_many', { data }))).toEqual(expected);
      expect(fromTool(await compact.callTool('create_many', { entity: 'LimitEdition', data }))).toEqual(expected);
      expect((await rows()).editions).toEqual([expect.objectContaining({ isbn: 'i0', title: 'kept' })]);
    });

    it('refuses a change or delete whose filter matches maxAffected + 1 rows alike, changing no row', async () => {
      const seed = items(4, (index) => ({ title: `b${index}`, pages: 1 }));
      for (const app of [entityApp, compactApp]) await app.dataSource.getRepository(LimitBook).save(seed);
      const before = await rows();
      const expected: Refusal = {
        status: 400,
        code: 'SVC_BATCH_TOO_LARGE',
        params: { limit: 'batch.maxAffected', max: 3, count: 4 },
      };
      const filter = { pages: { eq: 1 } };
      const changed = await request(http()).patch('/books?filter[pages][eq]=1').send({ pages: 2 });
      expect(fromProblem(changed.body as Problem)).toEqual(expected);
      expect(
        await graphql('mutation { updateLimitBooks(filter: { pages: { eq: 1 } }, input: { pages: 2 }) { total } }'),
      ).toEqual(expected);
      expect(fromTool(await byEntity.callTool('limit_book_update_many', { filter, data: { pages: 2 } }))).toEqual(
        expected,
      );
      expect(
        fromTool(await compact.callTool('update_many', { entity: 'LimitBook', filter, data: { pages: 2 } })),
      ).toEqual(expected);
      const deleted = await request(http()).delete('/books?filter[pages][eq]=1');
      expect(fromProblem(deleted.body as Problem)).toEqual(expected);
      expect(await graphql('mutation { deleteLimitBooks(filter: { pages: { eq: 1 } }) { total } }')).toEqual(expected);
      expect(fromTool(await byEntity.callTool('limit_book_delete_many', { filter }))).toEqual(expected);
      expect(fromTool(await compact.callTool('delete_many', { entity: 'LimitBook', filter }))).toEqual(expected);
      expect(await rows()).toEqual(before);
    });
  });
});
