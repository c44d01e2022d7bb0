/**
 * `count` (`GET /count`, `service.count`, GraphQL `<entities>Count`, MCP `<entity>_count`) on two tenants of one
 * database: the list's filter and search under its allowlists and scope, the row view, one statement, the result
 * cache, the policy asked as `count`, each refusal by name, and off unless the entity says `count: true`.
 */
import type { EntityConfig, PolicyFunction } from '@svc/core';
import { SvcRegistry } from '@svc/nestjs';
import request from 'supertest';
import { Column, DeleteDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bootstrapFailure, svcController } from '../support/create-test-app';
import { StatementCounter } from '../support/statement-counter';
import { TEST_DATABASES } from '../support/test-databases';
import { expectProblem } from './support/e2e-http';
import { dataOf, postGraphql } from './support/graphql-http';
import { startMcpApp, type McpApp } from './support/mcp-app';
import { connectMcp, type McpTestClient } from './support/mcp-clients';
import { callerOf } from './support/mcp-fixtures';

@Entity('ct_book')
class CtBook {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 100 }) title!: string;
  @Column({ type: 'int', default: 0 }) pages!: number;
  @Column({ type: 'int', default: 0 }) secret!: number;
  @DeleteDateColumn({ nullable: true }) deletedAt!: Date | null;
}

const tenantOf = (context: Parameters<PolicyFunction>[0]['context']) => callerOf(context)?.tenant ?? 'nobody';

/** Who called with which operation. */
const asked: string[] = [];
const policy: PolicyFunction = ({ operation, context }) => {
  asked.push(operation);
  return callerOf(context)?.role !== 'blocked';
};

const config: EntityConfig = {
  count: true,
  policy,
  filter: { fields: ['title', 'pages'], apply: ({ context }) => ({ tenant: { eq: tenantOf(context) } }) },
  search: { fields: ['title'] },
  set: { create: ({ context }) => ({ tenant: tenantOf(context) }) },
  cache: { ttl: 60 },
};

describe.each(TEST_DATABASES)('count on $name', (db) => {
  let t: McpApp;
  let http: ReturnType<McpApp['app']['getHttpServer']>;
  const counter = new StatementCounter();
  const as = (tenant: string, req: request.Test, role = 'editor') => req.set('x-user', `user:${tenant}:${role}`);
  const count = async (tenant: string, query = '', path = 'books') => {
    const res = await as(tenant, request(http).get(`/${path}/count${query ? `?${query}` : ''}`));
    expect(res.status).toBe(200);
    return (res.body as { total: number }).total;
  };

  beforeAll(async () => {
    t = await startMcpApp({
      db,
      suite: 'e2e_count',
      entities: [CtBook],
      controllers: [svcController('books', CtBook, config), svcController('plain-books', CtBook, {})],
      svc: { graphql: {}, cacheKey: (context) => `${tenantOf(context)}:${callerOf(context)?.role ?? ''}` },
      dataSource: { logging: true, logger: counter },
    });
    http = t.app.getHttpServer();
    const books = t.dataSource.getRepository(CtBook);
    const row = (tenant: string, title: string, pages: number) => ({ tenant, title, pages, secret: pages });
    const saved = await books.save([
      row('a', 'Dune', 400),
      row('a', 'Dune Messiah', 250),
      row('a', 'Emma', 300),
      row('a', 'Gone', 100),
      row('b', 'Dune', 500),
      row('b', 'Other', 50),
    ]);
    await books.softDelete(saved[3]!.id);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers { total }: the rows the caller may see, and no other tenant’s', async () => {
    const res = await as('a', request(http).get('/books/count'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ total: 3 });
    expect(await count('b')).toBe(2);
    expect(await count('nobody')).toBe(0);
  });

  it('takes the list’s filter, in bracket and JSON form, and its search', async () => {
    expect(await count('a', 'filter[pages][gte]=300')).toBe(2);
    expect(
      await count('a', `filter=${encodeURIComponent('{"or":[{"title":{"eq":"Emma"}},{"pages":{"lt":300}}]}')}`),
    ).toBe(2);
    expect(await count('a', 'search[query]=dune')).toBe(2);
    // The other tenant's Dune matches the filter, but is not the caller's to count.
    expect(await count('a', 'filter[title][eq]=Dune')).toBe(1);
  });

  it('counts the deleted rows with withDeleted, and those alone with onlyDeleted', async () => {
    expect(await count('a', 'withDeleted=true')).toBe(4);
    expect(await count('a', 'onlyDeleted=true')).toBe(1);
  });

  it('refuses what a count does not take, and a field the filter does not list, by name', async () => {
    for (const [query, param] of [
      ['sort=title', 'sort'],
      ['limit=1', 'limit'],
      ['select=title', 'select'],
    ] as const) {
      const problem = expectProblem(
        await as('a', request(http).get(`/books/count?${query}`)),
        400,
        'SVC_QUERY_UNSUPPORTED_PARAM',
      );
      expect(problem.errors?.[0]).toMatchObject({ param });
    }
    const problem = expectProblem(
      await as('a', request(http).get('/books/count?filter[secret][gte]=1')),
      400,
      'SVC_QUERY_INVALID',
    );
    expect(problem.errors?.[0]).toMatchObject({ param: 'filter[secret]', code: 'field_not_filterable' });
  });

  it('asks the policy as count, and a refused caller learns nothing', async () => {
    asked.length = 0;
    await count('a', 'filter[pages][gte]=1');
    expect(asked).toContain('count');
    expectProblem(await as('a', request(http).get('/books/count'), 'blocked'), 403, 'SVC_FORBIDDEN');
    expectProblem(
      await as('a', request(http).get('/books/count?filter[pages][gte]=9999'), 'blocked'),
      403,
      'SVC_FORBIDDEN',
    );
  });

  it('counts in one statement, then from the result cache until a write drops it', async () => {
    const query = 'filter[pages][lte]=1000&search[query]=e';
    const first = await counter.during(() => count('a', query));
    expect(first).toBe(1);
    expect(await counter.during(() => count('a', query))).toBe(0);
    await as('a', request(http).post('/books').send({ title: 'Eve', pages: 10 })).expect(201);
    expect(await count('a', query)).toBe(4);
  });

  it('is off unless the entity says count: true', async () => {
    const res = await as('a', request(http).get('/plain-books/count'));
    expect(res.status).not.toBe(200);
    expect(
      t.app
        .get(SvcRegistry)
        .instance.services()
        .some((service) => service.describe().operations.some((o) => o.id === 'count' && o.route?.path === 'count')),
    ).toBe(true);
  });

  it('answers service.count as REST does, refusing keys a count does not take', async () => {
    const service = t.app
      .get(SvcRegistry)
      .instance.services()
      .find((candidate) => candidate.describe().operations.some((operation) => operation.id === 'count'))!;
    const context = { request: { user: { name: 'x', tenant: 'a', role: 'editor' } } };
    expect(await service.count({ filter: { pages: { gte: 300 } } }, { context })).toEqual({ total: 2 });
    await expect(service.count({ sort: 'title' } as never, { context })).rejects.toMatchObject({
      code: 'SVC_QUERY_UNSUPPORTED_PARAM',
    });
  });

  it('answers ctBooksCount over GraphQL as REST does, in the caller’s scope', async () => {
    const answer = await postGraphql<{ ctBooksCount: number; all: number }>(http, {
      query: '{ ctBooksCount(filter: { pages: { gte: 300 } }) all: ctBooksCount(withDeleted: true) }',
      headers: { 'x-user': 'user:a:editor' },
    });
    expect(dataOf(answer)).toEqual({
      ctBooksCount: await count('a', 'filter[pages][gte]=300'),
      all: await count('a', 'withDeleted=true'),
    });
  });

  describe('on MCP', () => {
    let client: McpTestClient;

    beforeAll(async () => {
      client = await connectMcp('v2 client, 2026-07-28', { url: t.url, headers: { 'x-user': 'user:b:editor' } });
    });

    afterAll(async () => {
      await client?.close();
    });

    it('lists ct_book_count as a read-only tool, and answers as REST does for the caller', async () => {
      const tool = (await client.listTools()).find((candidate) => candidate.name === 'ct_book_count');
      expect(tool?.annotations).toMatchObject({ readOnlyHint: true });
      const result = await client.callTool('ct_book_count', { filter: { title: { eq: 'Dune' } } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ total: await count('b', 'filter[title][eq]=Dune') });
    });
  });

  it('refuses count: "yes" at boot, naming it', async () => {
    const error = await bootstrapFailure({
      db,
      suite: 'e2e_count_boot',
      entities: [CtBook],
      controllers: [svcController('books', CtBook, { count: 'yes' } as never)],
    });
    expect(error.message).toMatch(/count: must be true or false/);
  });
});
