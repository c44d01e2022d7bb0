/**
 * Inputs built to break the server: JSON Patch paths up the prototype chain, bodies nested thousands deep, filters a
 * thousand terms wide and member lists past any parameter limit. Each is a 4xx naming what was wrong, and nothing is
 * written; none is a 500.
 */
import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Book, BOOKSTORE_ENTITIES, Note, Tag } from '../fixtures/bookstore-entities';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { expectItem, expectList, expectProblem } from './support/e2e-http';
import { SvcRegistry } from '@svc/nestjs';
import type { SvcException } from '@svc/core';
import { startMcpApp, type McpApp } from './support/mcp-app';

/** `{ a: { a: ... 1 } }`, `levels` objects deep. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

/** The JSON text of `levels` nested objects, built without recursion (JSON.stringify overflows past a few thousand). */
function nestedJson(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

describe.each(TEST_DATABASES)('Hostile inputs on $name', (db) => {
  let t: TestApp;
  let bookId: number;
  const Books = svcController('books', Book, {
    relations: { tags: { write: { strategy: 'jsonPatch' } } },
    select: { fields: { exclude: ['isbn'] } },
  });
  /** A list read with wire query pairs, past the HTTP server's header-size limit (which answers 431 first). */
  const listBooks = (filter: string) =>
    t.app
      .get(SvcRegistry)
      .engineFor(Books)
      .execute({ operation: 'findMany', query: [['filter', filter]] });
  let noteId: string;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_hostile_inputs',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        Books,
        svcController('resource-books', Book, { relations: { tags: { write: { strategy: 'resource' } } } }),
        svcController('small-books', Book, { relations: { tags: { write: { strategy: 'replace', maxMembers: 3 } } } }),
        svcController('notes', Note),
        svcController('tags', Tag),
      ],
    });
    bookId = (await t.dataSource.getRepository(Book).save({ title: 'Target', isbn: 'isbn-1' })).id;
    noteId = (await t.dataSource.getRepository(Note).save({ text: 'seed' })).id;
    await t.dataSource.getRepository(Tag).save([{ name: 't1' }, { name: 't2' }, { name: 't3' }, { name: 't4' }]);
  });

  afterAll(async () => {
    await t?.close();
  });

  const patch = (path: string, document: unknown) =>
    request(t.server).patch(path).set('Content-Type', 'application/json-patch+json').send(JSON.stringify(document));
  const bookRow = () => t.dataSource.getRepository(Book).findOneByOrFail({ id: bookId });

  describe('JSON Patch paths', () => {
    it.each(['/constructor', '/__proto__', '/toString', '/hasOwnProperty', '/isbn'])(
      'refuses test on %s, which is not a served field, with a 400 naming it',
      async (path) => {
        const problem = expectProblem(
          await patch(`/books/${bookId}`, [{ op: 'test', path, value: {} }]),
          400,
          'SVC_VALIDATION_FAILED',
        );
        expect(problem.errors?.[0]?.detail).toContain(`'${path}'`);
      },
    );

    it.each([
      ['add', '/__proto__'],
      ['add', '/constructor'],
      ['replace', '/id'],
      ['replace', '/deletedAt'],
      ['replace', '/updatedAt'],
      ['add', '/nope'],
      ['remove', '/toString'],
    ])('refuses %s on %s with a 400 naming it, and writes nothing', async (op, path) => {
      const before = await bookRow();
      const problem = expectProblem(
        await patch(`/books/${bookId}`, [
          { op: 'replace', path: '/title', value: 'Changed' },
          { op, path, value: { title: 'polluted' } },
        ]),
        400,
        'SVC_VALIDATION_FAILED',
      );
      expect(problem.errors?.[0]).toMatchObject({ field: '/1/path' });
      expect(problem.errors?.[0]?.detail).toContain(`'${path}'`);
      expect(await bookRow()).toEqual(before);
      expect(({} as Record<string, unknown>)['title']).toBeUndefined();
    });

    it('still tests and writes own, served fields', async () => {
      const item = expectItem(
        await patch(`/books/${bookId}`, [
          { op: 'test', path: '/title', value: 'Target' },
          { op: 'replace', path: '/pages', value: 7 },
        ]),
      );
      expect(item).toMatchObject({ title: 'Target', pages: 7 });
    });
  });

  describe('deeply nested bodies', () => {
    it.each([
      [33, 400],
      [3000, 400],
      [5000, 400],
      [15000, 400],
      [100000, 413],
    ])('refuses %i levels in a JSON column with a %i, writing nothing', async (levels, status) => {
      const before = await t.dataSource.getRepository(Note).count();
      const res = await request(t.server)
        .post('/notes')
        .set('Content-Type', 'application/json')
        .send(`{"text":"deep","data":${nestedJson(levels)}}`);
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(await t.dataSource.getRepository(Note).count()).toBe(before);
      const again = await request(t.server)
        .patch(`/notes/${noteId}`)
        .set('Content-Type', 'application/json')
        .send(`{"data":${nestedJson(levels)}}`);
      expect(again.status).toBe(status);
    });

    it('names the field that nests too deep', async () => {
      const problem = expectProblem(
        await request(t.server)
          .post('/notes')
          .send({ text: 'deep', data: nested(40) }),
        400,
        'SVC_VALIDATION_FAILED',
      );
      expect(problem.errors?.[0]).toMatchObject({ field: 'data', code: 'too_deep' });
    });

    it('accepts a body within the limit (32 levels)', async () => {
      const created = expectItem(
        await request(t.server)
          .post('/notes')
          .send({ text: 'fine', data: nested(31) }),
        201,
      );
      expect(created['data']).toEqual(nested(31));
    });

    it('refuses a programmatic query nested past the limit with SVC_QUERY_INVALID', async () => {
      const engine = t.app.get(SvcRegistry).engineFor(Books);
      const error = (await engine
        .execute({ operation: 'findMany', query: { filter: nested(40) as Record<string, unknown> } })
        .then(
          () => undefined,
          (caught: unknown) => caught,
        )) as SvcException;
      expect(error.code).toBe('SVC_QUERY_INVALID');
      expect(error.errors?.[0]).toMatchObject({ param: 'query', code: 'too_deep' });
    });

    it('serves a row another program stored 3,000 levels deep, with its ETag', async () => {
      const deep = await t.dataSource.getRepository(Note).save({ text: 'legacy' });
      await t.dataSource
        .createQueryBuilder()
        .update(Note)
        .set({ data: () => ':data' })
        .setParameter('data', nestedJson(3000))
        .where('id = :id', { id: deep.id })
        .execute();
      for (let i = 0; i < 2; i++) {
        const res = await request(t.server).get(`/notes/${deep.id}`);
        expect(res.status).toBe(200);
        expect(res.headers['etag']).toEqual(expect.any(String));
      }
      expectList(await request(t.server).get('/notes?limit=100'));
    });
  });

  describe('wide filters', () => {
    const orOf = (terms: number) =>
      JSON.stringify({ or: Array.from({ length: terms }, (_, i) => ({ title: { eq: `t${i}` } })) });

    it('refuses more than filter.limits.maxTerms conditions (default 100) with a 400', async () => {
      for (const terms of [101, 1000, 5000]) {
        const error = (await listBooks(orOf(terms)).then(
          () => undefined,
          (caught: unknown) => caught,
        )) as SvcException;
        expect(error.code).toBe('SVC_QUERY_INVALID');
        expect(error.errors?.[0]).toMatchObject({ param: 'filter', code: 'too_many_terms' });
      }
      expectProblem(
        await request(t.server)
          .get('/books')
          .query({ filter: orOf(101) }),
        400,
        'SVC_QUERY_INVALID',
      );
    });

    it('holds one limit over the JSON and bracket forms sent together', async () => {
      const res = await request(t.server)
        .get('/books')
        .query({ filter: orOf(100), 'filter[pages][gte]': '1' });
      expectProblem(res, 400, 'SVC_QUERY_INVALID');
      expect(res.body.errors?.[0]).toMatchObject({ param: 'filter', code: 'too_many_terms' });
      await request(t.server)
        .get('/books')
        .query({ filter: orOf(99), 'filter[pages][gte]': '1' })
        .expect(200);
    });

    it('runs the widest filter it accepts, with the longest in lists, on the database', async () => {
      const wide = {
        or: Array.from({ length: 100 }, (_, i) => ({
          title: { in: Array.from({ length: 100 }, (_, j) => `t${i}-${j}`) },
        })),
      };
      // 100 terms of 100 values: 10,000 bound parameters, well inside each database's limits.
      wide.or[99] = { title: { in: ['Target', ...wide.or[99]!.title.in.slice(1)] } };
      const list = (await listBooks(JSON.stringify(wide))).body as { items: Record<string, unknown>[] };
      expect(list.items.map((item) => item['title'])).toEqual(['Target']);
    });

    it('refuses at bootstrap limits no database could run', async () => {
      const tooWide = await bootstrapFailure({
        db,
        suite: 'e2e_hostile_limits',
        entities: BOOKSTORE_ENTITIES,
        controllers: [svcController('books', Book, { filter: { limits: { maxTerms: 5000 } } })],
      });
      expect(tooWide.message).toContain('filter.limits.maxTerms');
      const tooMany = await bootstrapFailure({
        db,
        suite: 'e2e_hostile_limits',
        entities: BOOKSTORE_ENTITIES,
        controllers: [svcController('books', Book, { filter: { limits: { maxTerms: 400, maxInValues: 1000 } } })],
      });
      expect(tooMany.message).toContain('filter.limits');
    });
  });

  describe('member lists', () => {
    const ids = (count: number) => Array.from({ length: count }, (_, i) => i + 1);

    it('refuses more members than write.maxMembers (default 1,000) with a 400, writing nothing', async () => {
      const problem = expectProblem(
        await request(t.server).post(`/resource-books/${bookId}/tags`).send(ids(1001)),
        400,
        'SVC_VALIDATION_FAILED',
      );
      expect(problem.errors?.[0]).toMatchObject({ field: 'tags', code: 'too_many_members' });
      expectProblem(
        await request(t.server).put(`/small-books/${bookId}/tags`).send(ids(4)),
        400,
        'SVC_VALIDATION_FAILED',
      );
      expect(expectList(await request(t.server).get(`/resource-books/${bookId}/tags`)).items).toEqual([]);
    });

    it.each([0, 10_001, 'many'])('refuses write.maxMembers %p at bootstrap, naming it', async (maxMembers) => {
      const error = await bootstrapFailure({
        db,
        suite: 'e2e_hostile_limits',
        entities: BOOKSTORE_ENTITIES,
        controllers: [
          svcController('books', Book, {
            relations: { tags: { write: { strategy: 'replace', maxMembers: maxMembers as number } } },
          }),
        ],
      });
      expect(error.message).toContain('relations.tags.write.maxMembers');
    });

    it('counts every add of one JSON Patch document together', async () => {
      const document = Array.from({ length: 11 }, (_, i) => ({
        op: 'add',
        path: '/tags/-',
        value: ids(100).map((id) => id + i * 100),
      }));
      expectProblem(await patch(`/books/${bookId}`, document), 400, 'SVC_VALIDATION_FAILED');
    });

    it('refuses a JSON Patch over the ordinary 100 kB body limit with a 413', async () => {
      const huge = [{ op: 'add', path: '/tags/-', value: ids(150000) }];
      expectProblem(await patch(`/books/${bookId}`, huge), 413, 'SVC_PAYLOAD_TOO_LARGE');
    });

    it('leaves the keep-alive connection of a JSON Patch over the limit usable for the next request', async () => {
      await t.app.listen(0, '127.0.0.1');
      const { port } = t.server.address() as AddressInfo;
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const send = (method: string, path: string, type?: string, body?: string) =>
        new Promise<{ status: number; connection: string | undefined; socket: unknown }>((resolve, reject) => {
          const sent = httpRequest(
            { host: '127.0.0.1', port, method, path, agent, headers: type ? { 'content-type': type } : {} },
            (response) => {
              response.resume();
              response.on('end', () =>
                resolve({ status: response.statusCode!, connection: response.headers.connection, socket: sent.socket }),
              );
            },
          );
          sent.on('error', reject);
          sent.end(body);
        });
      try {
        const huge = JSON.stringify([{ op: 'add', path: '/tags/-', value: ids(150000) }]);
        const refused = await send('PATCH', `/books/${bookId}`, 'application/json-patch+json', huge);
        expect(refused.status).toBe(413);
        const started = Date.now();
        const next = await send('GET', `/books/${bookId}`);
        expect(next.status).toBe(200);
        expect(Date.now() - started).toBeLessThan(2000);
        // The same connection served both, or the 413 said it would close it.
        if (refused.connection !== 'close') expect(next.socket).toBe(refused.socket);
      } finally {
        agent.destroy();
      }
    });

    it('writes the largest member list it accepts, in statements each database can run', async () => {
      const tags = t.dataSource.getRepository(Tag);
      const created = await tags.save(Array.from({ length: 1000 }, (_, i) => ({ name: `bulk-${i}` })));
      const tagIds = created.map((tag) => tag.id);
      const added = await request(t.server).post(`/resource-books/${bookId}/tags`).send(tagIds);
      expect(added.status).toBe(200);
      expect(expectList(await request(t.server).get(`/resource-books/${bookId}/tags`)).total).toBe(1000);
      const replaced = await request(t.server).put(`/resource-books/${bookId}/tags`).send(tagIds.slice(0, 1));
      expect(replaced.status).toBe(200);
      expect(expectList(await request(t.server).get(`/resource-books/${bookId}/tags`)).total).toBe(1);
    });
  });
});

describe('Bodies the GraphQL and MCP endpoints cannot read', () => {
  let app: McpApp;
  let base: string;
  beforeAll(async () => {
    app = await startMcpApp({
      db: { name: 'sqlite' },
      suite: 'e2e_hostile_surface_bodies',
      entities: BOOKSTORE_ENTITIES,
      controllers: [svcController('books', Book)],
      svc: { graphql: true },
    });
    base = app.url.replace(/\/mcp$/, '');
  });
  afterAll(() => app?.close());

  const post = (path: string, body: string) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body,
    });
  /** Valid JSON past the platform's JSON body limit (Nest's 100 kB on Express, Fastify's 1 MiB). */
  const oversized = JSON.stringify({ query: `{ books { items { id } } }${' '.repeat(2 * 1024 * 1024)}` });

  it.each([
    ['malformed', '{"query": ', 400, 'SVC_MALFORMED_REQUEST'],
    ['oversized', oversized, 413, 'SVC_PAYLOAD_TOO_LARGE'],
  ])(
    'answers a %s JSON body at /graphql as a GraphQL error with the problem, at its status',
    async (_, body, status, code) => {
      const response = await post('/graphql', body);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const answer = (await response.json()) as { errors?: { message: string; extensions: Record<string, unknown> }[] };
      expect(answer.errors).toHaveLength(1);
      expect(answer.errors![0]!.message).toEqual(expect.any(String));
      expect(answer.errors![0]!.extensions).toMatchObject({ code, problem: { status, code } });
    },
  );

  it.each([
    ['malformed', '{"jsonrpc": "2.0", ', 400, -32700],
    ['oversized', oversized, 413, -32600],
  ])('answers a %s JSON body at /mcp as a JSON-RPC error, at its status', async (_, body, status, rpcCode) => {
    const response = await post('/mcp', body);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: rpcCode, message: expect.any(String), data: { status } },
    });
  });

  it('answers an empty JSON body in each protocol, with a 400', async () => {
    // Express reads an empty JSON body as {} (each protocol then finds what is missing); Fastify refuses it unread.
    const graphql = await post('/graphql', '');
    expect(graphql.status).toBe(400);
    expect(((await graphql.json()) as { errors: { message: string }[] }).errors[0]!.message).toEqual(
      expect.any(String),
    );
    const mcp = await post('/mcp', '');
    expect(mcp.status).toBe(400);
    const answer = (await mcp.json()) as { jsonrpc: string; id: null; error: { code: number } };
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: null });
    expect([-32700, -32600]).toContain(answer.error.code);
  });

  it("answers a global guard's refusal in each protocol, at the guard's status", async () => {
    const refused = (path: string) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-refuse': '1' },
        body: JSON.stringify({ query: '{ books { total } }', jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const graphql = await refused('/graphql');
    expect(graphql.status).toBe(403);
    expect(await graphql.json()).toMatchObject({
      errors: [{ message: 'The test guard refuses this caller.', extensions: { code: 'SVC_FORBIDDEN' } }],
    });
    const mcp = await refused('/mcp');
    expect(mcp.status).toBe(403);
    expect(await mcp.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'The test guard refuses this caller.', data: { code: 'SVC_FORBIDDEN' } },
    });
  });

  it('still answers a malformed body on an entity route as problem+json', async () => {
    const response = await post('/books', '{"title": ');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
