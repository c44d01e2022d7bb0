/**
 * REST shapes an app chooses, on two tenants of one database: `envelope` (item answers wrapped, list members renamed,
 * write bodies unwrapped, on standard and custom operations, with ETags and 304 as before, and in the OpenAPI
 * document), `errors.format` (the app's error body for a not found, a refusing policy, a failed validation, a unique
 * violation naming its field, a guard's 401, and problem+json where it answers undefined), and `filter.params` (plain
 * query parameters as equality filters, to-many paths included, under the caller's scope).
 */
import {
  Controller,
  Get,
  Injectable,
  UnauthorizedException,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
  type Type,
} from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import {
  builtInHandlers,
  withListMeta,
  type EntityConfig,
  type ErrorFormat,
  type ProblemDetails,
  type SvcContext,
} from '@svc/core';
import request from 'supertest';
import {
  Column,
  DeleteDateColumn,
  Entity,
  Index,
  JoinTable,
  ManyToMany,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { dereferenced, validateOpenApi } from '../support/openapi-checks';
import { TEST_DATABASES } from '../support/test-databases';
import { expectProblem } from './support/e2e-http';

@Entity('as_user')
@Index('as_user_email', ['email'], { unique: true })
class AsUser {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 60, unique: true }) username!: string;
  @Column({ type: 'varchar', length: 100 }) email!: string;
}

@Entity('as_tag')
class AsTag {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 40 }) name!: string;
}

@Entity('as_article')
class AsArticle {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 100 }) title!: string;
  @Column({ type: 'int', default: 0 }) pages!: number;
  @Column({ type: 'int', nullable: true }) authorId!: number | null;
  @ManyToOne(() => AsUser, { nullable: true }) author!: AsUser | null;
  @ManyToMany(() => AsTag) @JoinTable({ name: 'as_article_tags' }) tags!: AsTag[];
  @DeleteDateColumn({ nullable: true }) deletedAt!: Date | null;
}

const headerOf = (context: SvcContext, name: string) =>
  (context.request as { headers?: Record<string, string | undefined> } | undefined)?.headers?.[name];
const tenantOf = (context: SvcContext) => headerOf(context, 'x-tenant') ?? 'nobody';

/** RealWorld's error bodies, from the problem: `{ errors: { <name>: [<message>] } }`; undefined for the rest. */
const NAMES: Readonly<Record<string, string>> = { AsArticle: 'article', AsUser: 'user' };
const realWorld: ErrorFormat = (problem: Readonly<ProblemDetails>) => {
  const about = NAMES[problem.entity ?? ''] ?? 'request';
  const byField = (message: string) => {
    const errors: Record<string, string[]> = {};
    for (const item of problem.errors ?? []) (errors[item.field ?? about] ??= []).push(message);
    return errors;
  };
  switch (problem.code) {
    case 'SVC_NOT_FOUND':
      return { status: 404, body: { errors: { [about]: ['not found'] } } };
    case 'SVC_FORBIDDEN':
      return { status: 403, body: { errors: { [about]: ['forbidden'] } } };
    case 'SVC_VALIDATION_FAILED':
      return { status: 422, body: { errors: byField("can't be blank") } };
    case 'SVC_CONFLICT':
      return problem.errors ? { status: 409, body: { errors: byField('has already been taken') } } : undefined;
    case 'SVC_HTTP_ERROR':
      return problem.status === 401 ? { status: 401, body: { errors: { token: ['is missing'] } } } : undefined;
    default:
      return undefined;
  }
};

const articleConfig: EntityConfig<AsArticle> = {
  envelope: { item: 'article', list: { items: 'articles', total: 'articlesCount' } },
  filter: {
    fields: ['title', 'pages', 'author.username', 'tags.name'],
    apply: ({ context }) => ({ tenant: { eq: tenantOf(context) } }),
    params: { author: 'author.username', tag: 'tags.name', pages: 'pages' },
  },
  set: { create: ({ context }) => ({ tenant: tenantOf(context) }) },
  schema: { input: { create: ['title', 'pages', 'authorId'], update: ['title', 'pages'], patch: ['title', 'pages'] } },
  sort: { default: ['id'] },
  count: true,
  policy: ({ operation, context }) => !(operation === 'deleteOne' && headerOf(context, 'x-role') === 'reader'),
  operations: {
    findMany: true,
    findOne: true,
    createOne: true,
    updateOne: true,
    patchOne: true,
    deleteOne: true,
    restoreOne: true,
    retitleOne: {
      kind: 'write',
      meta: { routes: { method: 'POST', path: ':id/retitle', successStatus: 200 } },
      handler: (input) => ({ id: Number(input.id), title: (input.body as { title?: string } | undefined)?.title }),
    },
    recentMany: {
      kind: 'read',
      cardinality: 'many',
      meta: { routes: { method: 'GET', path: 'recent', successStatus: 200 } },
      handler: withListMeta(builtInHandlers.findMany, (result) => ({ onPage: result.entities.length })),
    },
  },
};

const userConfig = (extra: EntityConfig<AsUser> = {}): EntityConfig<AsUser> => ({
  envelope: { item: 'user' },
  filter: { apply: ({ context }) => ({ tenant: { eq: tenantOf(context) } }) },
  set: { create: ({ context }) => ({ tenant: tenantOf(context) }) },
  schema: { input: { create: ['username', 'email'], patch: ['username', 'email'] } },
  operations: { findOne: true, createOne: true, patchOne: true },
  ...extra,
});

/** A sign-in check: a request without `Authorization` is refused with Nest's UnauthorizedException. */
@Injectable()
class SignedIn implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (!context.switchToHttp().getRequest<{ headers: Record<string, string> }>().headers['authorization'])
      throw new UnauthorizedException('Sign in first.');
    return true;
  }
}

/** A route of the app's own, outside Svc. */
@Controller('session')
@UseGuards(SignedIn)
class SessionController {
  @Get()
  get(): { ok: true } {
    return { ok: true };
  }
}

const SecureArticles = svcController('secure-articles', AsArticle, { operations: { findMany: true } });
UseGuards(SignedIn)(SecureArticles);

describe.each(TEST_DATABASES)('API shapes on $name', (db) => {
  let t: TestApp;
  const as = (tenant: string, req: request.Test) => req.set('x-tenant', tenant);
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_api_shapes',
      entities: [AsUser, AsTag, AsArticle],
      controllers: [
        svcController('articles', AsArticle, articleConfig),
        svcController('users', AsUser, userConfig()),
        // The entity's own format answers undefined: its errors stay problem+json.
        svcController('raw-users', AsUser, userConfig({ errors: { format: () => undefined } })),
        SecureArticles as Type,
        SessionController,
      ],
      svc: { errors: { format: realWorld }, problemDetails: 'all' },
    });
    const users = t.dataSource.getRepository(AsUser);
    const tags = t.dataSource.getRepository(AsTag);
    const articles = t.dataSource.getRepository(AsArticle);
    const [jakeA, janeA, jakeB] = await users.save([
      { tenant: 'a', username: 'jake', email: 'jake@a' },
      { tenant: 'a', username: 'jane', email: 'jane@a' },
      { tenant: 'b', username: 'jake-b', email: 'jake@b' },
    ]);
    const [dragons, training] = await tags.save([{ name: 'dragons' }, { name: 'training' }]);
    const saved = await articles.save([
      { tenant: 'a', title: 'How to train', pages: 10, author: jakeA, tags: [dragons!, training!] },
      { tenant: 'a', title: 'Jane on dragons', pages: 20, author: janeA, tags: [dragons!] },
      { tenant: 'a', title: 'Jake alone', pages: 30, author: jakeA, tags: [] },
      { tenant: 'b', title: 'Other tenant dragons', pages: 10, author: jakeB, tags: [dragons!] },
    ]);
    saved.forEach((row) => (ids[row.title] = row.id));
  });

  afterAll(async () => {
    await t?.close();
  });

  const titlesOf = (body: { articles: { title: string }[] }) => body.articles.map((row) => row.title);

  describe('envelope', () => {
    it('wraps a single row under its key, keeps the ETag of the row, and answers 304 to it', async () => {
      const res = await as('a', request(t.server).get(`/articles/${ids['How to train']}`)).expect(200);
      expect(Object.keys(res.body as object)).toEqual(['article']);
      expect(res.body.article).toMatchObject({ id: ids['How to train'], title: 'How to train', pages: 10 });
      const etag = res.headers['etag'] as string;
      expect(etag).toMatch(/^"/);
      const again = await as('a', request(t.server).get(`/articles/${ids['How to train']}`))
        .set('If-None-Match', etag)
        .expect(304);
      expect(again.text).toBe('');
    });

    it('renames a list’s items and total and keeps limit and offset', async () => {
      const res = await as('a', request(t.server).get('/articles?limit=2')).expect(200);
      expect(Object.keys(res.body as object).sort()).toEqual(['articles', 'articlesCount', 'limit', 'offset']);
      expect(res.body).toMatchObject({ articlesCount: 3, limit: 2, offset: 0 });
      expect(titlesOf(res.body)).toEqual(['How to train', 'Jane on dragons']);
    });

    it('reads create, update and patch bodies from under the key, and answers in it', async () => {
      const created = await as('a', request(t.server).post('/articles'))
        .send({ article: { title: 'Fresh', pages: 5 } })
        .expect(201);
      expect(created.body.article).toMatchObject({ title: 'Fresh', pages: 5, tenant: 'a' });
      const id = created.body.article.id as number;
      expect(created.headers['location']).toMatch(new RegExp(`/articles/${id}$`));
      const patched = await as('a', request(t.server).patch(`/articles/${id}`))
        .send({ article: { pages: 6 } })
        .expect(200);
      expect(patched.body).toEqual({ article: expect.objectContaining({ id, title: 'Fresh', pages: 6 }) });
      const put = await as('a', request(t.server).put(`/articles/${id}`))
        .send({ article: { title: 'Fresher', pages: 7 } })
        .expect(200);
      expect(put.body.article).toMatchObject({ title: 'Fresher', pages: 7 });
      await as('a', request(t.server).delete(`/articles/${id}`)).expect(204);
      const restored = await as('a', request(t.server).patch(`/articles/${id}/restore`)).expect(200);
      expect(restored.body.article).toMatchObject({ id, title: 'Fresher' });
      await t.dataSource.getRepository(AsArticle).delete({ id });
    });

    it('refuses a body without the key, or with other keys, as 400 SVC_VALIDATION_FAILED naming them', async () => {
      const missing = expectProblem(
        await as('a', request(t.server).post('/raw-users')).send({ username: 'x', email: 'x@a' }),
        400,
        'SVC_VALIDATION_FAILED',
      );
      expect(missing.errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: 'user', code: 'required', detail: expect.stringContaining('"user"') }),
          expect.objectContaining({ field: 'username', code: 'unknown' }),
        ]),
      );
      const beside = expectProblem(
        await as('a', request(t.server).post('/raw-users')).send({ user: { username: 'x', email: 'x@a' }, extra: 1 }),
        400,
        'SVC_VALIDATION_FAILED',
      );
      expect(beside.errors).toEqual([expect.objectContaining({ field: 'extra', code: 'unknown' })]);
    });

    it('names a body field by its path in the row, not under the key', async () => {
      const problem = expectProblem(
        await as('a', request(t.server).post('/raw-users')).send({ user: { email: 'y@a' } }),
        400,
        'SVC_VALIDATION_FAILED',
      );
      expect(problem.errors?.map((item) => item.field)).toEqual(['username']);
      expect(problem.entity).toBe('AsUser');
    });

    it('wraps a custom one operation’s object result and unwraps its body; a bodiless call passes', async () => {
      const id = ids['How to train']!;
      const sent = await as('a', request(t.server).post(`/articles/${id}/retitle`))
        .send({ article: { title: 'New' } })
        .expect(200);
      expect(sent.body).toEqual({ article: { id, title: 'New' } });
      const bare = await as('a', request(t.server).post(`/articles/${id}/retitle`)).expect(200);
      expect(bare.body).toEqual({ article: expect.objectContaining({ id }) });
    });

    it('renames a custom many read’s list and keeps its meta', async () => {
      const res = await as('a', request(t.server).get('/articles/recent?author=jake')).expect(200);
      expect(res.body).toMatchObject({ articlesCount: 2, meta: { onPage: 2 } });
      expect(titlesOf(res.body)).toEqual(['How to train', 'Jake alone']);
      expect(res.body.items).toBeUndefined();
    });
  });

  describe('errors.format', () => {
    it('answers a missing row in the app’s shape, as JSON, with Svc’s request id', async () => {
      const res = await as('a', request(t.server).get('/articles/987654')).set('X-Request-Id', 'rw-1').expect(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['x-request-id']).toBe('rw-1');
      expect(res.body).toEqual({ errors: { article: ['not found'] } });
    });

    it('answers another tenant’s row as a missing one', async () => {
      const res = await as('a', request(t.server).get(`/articles/${ids['Other tenant dragons']}`)).expect(404);
      expect(res.body).toEqual({ errors: { article: ['not found'] } });
    });

    it('answers a refusing policy, naming the entity', async () => {
      const res = await as('a', request(t.server).delete(`/articles/${ids['Jake alone']}`))
        .set('x-role', 'reader')
        .expect(403);
      expect(res.body).toEqual({ errors: { article: ['forbidden'] } });
    });

    it('answers a failed validation by the fields of its items', async () => {
      const res = await as('a', request(t.server).post('/articles'))
        .send({ article: { pages: 3 } })
        .expect(422);
      expect(res.body).toEqual({ errors: { title: ["can't be blank"] } });
      const bare = await as('a', request(t.server).post('/articles')).send({ title: 'x' }).expect(422);
      expect(bare.body.errors).toMatchObject({ article: ["can't be blank"] });
    });

    it('answers a unique violation by the field the database named, on a column and on an index', async () => {
      await as('a', request(t.server).post('/users'))
        .send({ user: { username: 'taken', email: 'taken@a' } })
        .expect(201);
      const username = await as('a', request(t.server).post('/users'))
        .send({ user: { username: 'taken', email: 'other@a' } })
        .expect(409);
      expect(username.body).toEqual({ errors: { username: ['has already been taken'] } });
      const email = await as('a', request(t.server).post('/users'))
        .send({ user: { username: 'fresh', email: 'taken@a' } })
        .expect(409);
      expect(email.body).toEqual({ errors: { email: ['has already been taken'] } });
    });

    it('serves the unique violation’s problem with the field and without the value where the format declines', async () => {
      const problem = expectProblem(
        await as('b', request(t.server).post('/raw-users')).send({ user: { username: 'jake', email: 'j2@b' } }),
        409,
        'SVC_CONFLICT',
      );
      expect(problem.errors).toEqual([{ field: 'username', code: 'duplicate', detail: expect.any(String) }]);
      expect(problem.entity).toBe('AsUser');
      expect(JSON.stringify(problem)).not.toContain('"jake"');
      expect(JSON.stringify(problem)).not.toMatch(/\bjake\b/);
    });

    it('answers a guard’s 401 on an Svc route and on the app’s own route (problemDetails: all)', async () => {
      const svc = await request(t.server).get('/secure-articles').expect(401);
      expect(svc.headers['content-type']).toMatch(/^application\/json/);
      expect(svc.body).toEqual({ errors: { token: ['is missing'] } });
      const own = await request(t.server).get('/session').expect(401);
      expect(own.body).toEqual({ errors: { token: ['is missing'] } });
      await request(t.server).get('/session').set('Authorization', 'Token x').expect(200);
    });

    it('keeps problem+json where the format answers undefined', async () => {
      const problem = expectProblem(
        await as('a', request(t.server).get('/articles?limit=abc')),
        400,
        'SVC_QUERY_INVALID',
      );
      expect(problem.entity).toBe('AsArticle');
      const missing = expectProblem(await as('a', request(t.server).get('/raw-users/987654')), 404, 'SVC_NOT_FOUND');
      expect(missing.entity).toBe('AsUser');
    });
  });

  describe('filter.params', () => {
    it('filters by a to-one path, as the grammar’s eq does', async () => {
      const plain = await as('a', request(t.server).get('/articles?author=jake')).expect(200);
      const grammar = await as('a', request(t.server).get('/articles?filter[author.username][eq]=jake')).expect(200);
      expect(titlesOf(plain.body)).toEqual(['How to train', 'Jake alone']);
      expect(plain.body).toEqual(grammar.body);
    });

    it('filters by a to-many path: the rows having a member with that value', async () => {
      const res = await as('a', request(t.server).get('/articles?tag=dragons')).expect(200);
      expect(titlesOf(res.body)).toEqual(['How to train', 'Jane on dragons']);
      const both = await as('a', request(t.server).get('/articles?tag=dragons&author=jane&limit=1')).expect(200);
      expect(titlesOf(both.body)).toEqual(['Jane on dragons']);
      expect(both.body.articlesCount).toBe(1);
    });

    it('never reaches another tenant’s rows', async () => {
      const res = await as('b', request(t.server).get('/articles?tag=dragons')).expect(200);
      expect(titlesOf(res.body)).toEqual(['Other tenant dragons']);
      const none = await as('b', request(t.server).get('/articles?author=jake')).expect(200);
      expect(none.body.articlesCount).toBe(0);
    });

    it('counts by the same parameters', async () => {
      const res = await as('a', request(t.server).get('/articles/count?tag=dragons')).expect(200);
      expect(res.body).toEqual({ total: 2 });
    });

    it('refuses a value the field cannot take with the grammar’s 400, naming the parameter', async () => {
      const plain = expectProblem(
        await as('a', request(t.server).get('/articles?pages=many')),
        400,
        'SVC_QUERY_INVALID',
      );
      const grammar = expectProblem(
        await as('a', request(t.server).get('/articles?filter[pages][eq]=many')),
        400,
        'SVC_QUERY_INVALID',
      );
      expect(plain.errors).toEqual([{ ...grammar.errors![0], param: 'pages' }]);
    });

    it('refuses a parameter sent twice, pointing at in', async () => {
      const problem = expectProblem(
        await as('a', request(t.server).get('/articles?tag=dragons&tag=training')),
        400,
        'SVC_QUERY_INVALID',
      );
      expect(problem.errors).toEqual([
        { param: 'tag', code: 'repeated', detail: expect.stringContaining('filter[tags.name][in]') },
      ]);
    });

    it('is refused where the resource does not take it (a single-row read)', async () => {
      expectProblem(
        await as('a', request(t.server).get(`/articles/${ids['Jake alone']}?author=jake`)),
        400,
        'SVC_QUERY_UNSUPPORTED_PARAM',
      );
    });
  });

  describe('the OpenAPI document', () => {
    let document: OpenAPIObject;
    beforeAll(() => {
      const config = new DocumentBuilder().setTitle('Shapes').setVersion('1').setOpenAPIVersion('3.1.0').build();
      document = SwaggerModule.createDocument(t.app, config);
    });

    it('validates', async () => {
      await expect(validateOpenApi(document)).resolves.toBeUndefined();
    });

    it('describes the wrapped bodies and answers and the filter params', () => {
      const paths = dereferenced(document).paths as Record<string, Record<string, Record<string, unknown>>>;
      const schemaOf = (path: string, method: string, status: string) =>
        (paths[path]![method]!['responses'] as Record<string, { content: Record<string, { schema: object }> }>)[status]!
          .content['application/json']!.schema as { properties: Record<string, unknown>; required?: string[] };
      const list = schemaOf('/articles', 'get', '200');
      expect(Object.keys(list.properties).sort()).toEqual(['articles', 'articlesCount', 'limit', 'meta', 'offset']);
      expect(list.required).toEqual(expect.arrayContaining(['articles', 'articlesCount']));
      expect(Object.keys(schemaOf('/articles/{id}', 'get', '200').properties)).toEqual(['article']);
      expect(Object.keys(schemaOf('/articles/recent', 'get', '200').properties)).toContain('articlesCount');
      const body = (paths['/articles']!['post']!['requestBody'] as { content: Record<string, { schema: object }> })
        .content['application/json']!.schema as { properties: Record<string, unknown>; required: string[] };
      expect(Object.keys(body.properties)).toEqual(['article']);
      expect(body.required).toEqual(['article']);
      const names = (paths['/articles']!['get']!['parameters'] as { name: string }[]).map((entry) => entry.name);
      expect(names).toEqual(expect.arrayContaining(['author', 'tag', 'pages']));
      const countNames = (paths['/articles/count']!['get']!['parameters'] as { name: string }[]).map((p) => p.name);
      expect(countNames).toEqual(expect.arrayContaining(['author', 'tag']));
    });
  });
});

describe('API shapes at bootstrap', () => {
  const db = TEST_DATABASES[0]!;
  const refused = (config: EntityConfig) =>
    bootstrapFailure({
      db,
      suite: 'e2e_api_shapes_boot',
      entities: [AsUser, AsTag, AsArticle],
      controllers: [svcController('articles', AsArticle, config)],
    });

  it.each([
    [{ envelope: { itme: 'article' } }, 'envelope.itme', 'is not a known key'],
    [{ envelope: { item: 3 } }, 'envelope.item', 'non-empty string'],
    [{ envelope: { list: 'articles' } }, 'envelope.list', 'must be an object'],
    [{ envelope: { list: { items: 'a', total: 'a' } } }, 'envelope.list', 'both items and total'],
    [{ envelope: 'article' }, 'envelope', 'must be an object'],
  ])('refuses envelope %j naming %s', async (config, path, message) => {
    const error = await refused(config as EntityConfig);
    expect(error.path).toBe(path);
    expect(error.message).toContain(message);
  });

  it.each([
    [
      { fields: ['title'], params: { author: 'author.username' } },
      'filter.params.author',
      'filter.fields does not list',
    ],
    [{ fields: ['title'], params: { limit: 'title' } }, 'filter.params.limit', 'Svc reads itself'],
    [{ fields: ['title'], params: { sort: 'title' } }, 'filter.params.sort', 'Svc reads itself'],
    [{ fields: ['title'], params: { 'a[b]': 'title' } }, 'filter.params.a[b]', 'plain query parameter'],
    [{ fields: { title: ['contains'] }, params: { title: 'title' } }, 'filter.params.title', 'does not take eq'],
    [{ fields: ['title'], params: 'title' }, 'filter.params', 'must be an object'],
  ])('refuses filter %j naming %s', async (filter, path, message) => {
    const error = await refused({ filter } as EntityConfig);
    expect(error.path).toBe(path);
    expect(error.message).toContain(message);
  });

  it('refuses an errors.format that is not a function', async () => {
    const error = await refused({ errors: { format: 'json' } } as unknown as EntityConfig);
    expect(error.path).toBe('errors.format');
  });
});
