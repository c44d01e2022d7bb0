/**
 * Relation array writes (`relations.<name>.write.strategy`): `replace` (PUT /:id/<relation>), `resource` (GET, POST,
 * PUT, DELETE on /:id/<relation>) and `jsonPatch` (PATCH /:id with an RFC 6902 array), each in one transaction.
 */
import request from 'supertest';
import { Controller } from '@nestjs/common';
import { Override, Svc } from '@svc/nestjs';
import { Author, BOOKSTORE_ENTITIES, Book, Review, Tag } from '../fixtures/bookstore-entities';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

const PATCH_TYPE = 'application/json-patch+json';
/** What the `priced` controller's patchOne policy was given as `body`, in call order. */
const policyBodies: unknown[] = [];

describe.each(TEST_DATABASES)('relation array writes on $name', (db) => {
  let t: TestApp;
  let tags: number[];
  let books: number[];
  let authors: number[];
  let hidden: number;
  const server = () => request(t.server);
  const tagIdsOf = async (book: number) =>
    (await t.dataSource.getRepository(Book).findOneOrFail({ where: { id: book }, relations: { tags: true } })).tags
      .map((tag) => tag.id)
      .sort((a, b) => a - b);

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_relation_writes',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book, { relations: { tags: { write: { strategy: 'resource' } } } }),
        svcController('authors', Author, { relations: { books: { write: { strategy: 'replace' } } } }),
        svcController('patched', Book, {
          select: { fields: { exclude: ['isbn'] } },
          relations: { tags: { write: { strategy: 'jsonPatch' } } },
        }),
        svcController('book-reviews', Book, { relations: { reviews: { write: { strategy: 'replace' } } } }),
        svcController('locked', Book, {
          schema: { input: { update: ['title'] } },
          relations: { tags: { write: { strategy: 'resource' } } },
        }),
        svcController('tags', Tag, { filter: { apply: () => ({ name: { ne: 'hidden' } }) } }),
        // A policy that reads the fields a body sets: it must hold for a JSON Patch document too.
        svcController('priced', Book, {
          relations: { tags: { write: { strategy: 'jsonPatch' } } },
          operations: {
            patchOne: {
              policy: ({ body }) => {
                policyBodies.push(body);
                return (body as Record<string, unknown> | undefined)?.['pages'] === undefined;
              },
            },
          },
        }),
      ],
    });
    tags = (await t.dataSource.getRepository(Tag).save(['a', 'b', 'c', 'd'].map((name) => ({ name })))).map(
      (tag) => tag.id,
    );
    hidden = (await t.dataSource.getRepository(Tag).save({ name: 'hidden' })).id;
    authors = (await t.dataSource.getRepository(Author).save([{ name: 'Ann' }, { name: 'Bob' }])).map((a) => a.id);
    books = (
      await t.dataSource
        .getRepository(Book)
        .save(Array.from({ length: 5 }, (_, i) => ({ title: `Book ${i}`, authorId: i < 2 ? authors[0] : null })))
    ).map((book) => book.id);
  });
  afterAll(() => t.close());

  describe('resource', () => {
    it('adds members idempotently, lists them, and returns the parent item', async () => {
      const added = await server()
        .post(`/books/${books[0]}/tags`)
        .send([tags[0], { id: tags[1] }])
        .expect(200);
      expect(added.body).toMatchObject({ id: books[0], title: 'Book 0' });
      expect(added.headers['etag']).toMatch(/^"/);
      await server().post(`/books/${books[0]}/tags`).send([tags[1]]).expect(200);
      expect(await tagIdsOf(books[0]!)).toEqual([tags[0], tags[1]]);
      const listed = await server().get(`/books/${books[0]}/tags`).expect(200);
      expect(listed.body.items.map((tag: Tag) => tag.name).sort()).toEqual(['a', 'b']);
      expect(listed.body.total).toBe(2);
    });

    it('removes members by ?ids= and by /:memberId; a non-member is 404', async () => {
      await server().post(`/books/${books[1]}/tags`).send(tags).expect(200);
      await server().delete(`/books/${books[1]}/tags?ids=${tags[0]},${tags[1]}`).expect(200);
      await server().delete(`/books/${books[1]}/tags/${tags[2]}`).expect(200);
      expect(await tagIdsOf(books[1]!)).toEqual([tags[3]]);
      const missing = await server().delete(`/books/${books[1]}/tags/${tags[0]}`).expect(404);
      expect(missing.body.code).toBe('SVC_NOT_FOUND');
    });

    it('replaces the whole set with PUT', async () => {
      await server().put(`/books/${books[2]}/tags`).send([tags[0], tags[2]]).expect(200);
      await server().put(`/books/${books[2]}/tags`).send([tags[2], tags[3]]).expect(200);
      expect(await tagIdsOf(books[2]!)).toEqual([tags[2], tags[3]]);
      await server().put(`/books/${books[2]}/tags`).send([]).expect(200);
      expect(await tagIdsOf(books[2]!)).toEqual([]);
    });

    it('answers 422 SVC_UNRESOLVED_RELATION for a member that does not exist, changing nothing', async () => {
      await server().put(`/books/${books[3]}/tags`).send([tags[0]]).expect(200);
      const response = await server().put(`/books/${books[3]}/tags`).send([tags[1], 999999]).expect(422);
      expect(response.body.code).toBe('SVC_UNRESOLVED_RELATION');
      expect(response.body.detail).toContain('999999');
      expect(await tagIdsOf(books[3]!)).toEqual([tags[0]]);
    });

    it('answers 400 for malformed member ids and 404 for a missing parent', async () => {
      const bad = await server()
        .post(`/books/${books[3]}/tags`)
        .send(['x', { name: 'a' }])
        .expect(400);
      expect(bad.body).toMatchObject({ code: 'SVC_VALIDATION_FAILED' });
      expect(bad.body.errors).toHaveLength(2);
      await server().post(`/books/999999/tags`).send([tags[0]]).expect(404);
    });

    it('honours If-Match on the parent', async () => {
      const current = await server().get(`/books/${books[4]}`).expect(200);
      await server().post(`/books/${books[4]}/tags`).set('If-Match', '"stale"').send([tags[0]]).expect(412);
      await server()
        .post(`/books/${books[4]}/tags`)
        .set('If-Match', current.headers['etag']!)
        .send([tags[0]])
        .expect(200);
    });

    it('is governed by the update slot: a field list that does not name the relation refuses it', async () => {
      const response = await server().post(`/locked/${books[4]}/tags`).send([tags[1]]).expect(400);
      expect(response.body).toMatchObject({
        code: 'SVC_VALIDATION_FAILED',
        errors: [{ field: 'tags', code: 'not_writable' }],
      });
      await server().get(`/locked/${books[4]}/tags`).expect(200);
    });
  });

  describe('scope and refusals', () => {
    it('answers 422 for a target outside its own filter.apply, as for one that does not exist', async () => {
      const response = await server().post(`/books/${books[4]}/tags`).send([hidden]).expect(422);
      expect(response.body.code).toBe('SVC_UNRESOLVED_RELATION');
      expect(await tagIdsOf(books[4]!)).not.toContain(hidden);
    });

    it('refuses query parameters on the member list, naming them', async () => {
      const response = await server().get(`/books/${books[0]}/tags?limit=1`).expect(400);
      expect(response.body).toMatchObject({ code: 'SVC_QUERY_UNSUPPORTED_PARAM', errors: [{ param: 'limit' }] });
    });

    it('refuses to detach a member whose foreign key is required, with 409', async () => {
      const review = await t.dataSource.getRepository(Review).save({ rating: 5, book: { id: books[2]! } });
      const response = await server().put(`/book-reviews/${books[2]}/reviews`).send([]).expect(409);
      expect(response.body.detail).toContain('required');
      expect(await t.dataSource.getRepository(Review).countBy({ id: review.id })).toBe(1);
    });
  });

  describe('replace on a one-to-many', () => {
    it('sets and clears the members foreign keys', async () => {
      await server().put(`/authors/${authors[1]}/books`).send([books[3], books[4]]).expect(200);
      const owned = await t.dataSource.getRepository(Book).find({ where: { authorId: authors[1] } });
      expect(owned.map((book) => book.id).sort((a, b) => a - b)).toEqual([books[3], books[4]]);
      await server().put(`/authors/${authors[1]}/books`).send([books[4]]).expect(200);
      expect((await t.dataSource.getRepository(Book).findOneByOrFail({ id: books[3] })).authorId).toBeNull();
      // Only PUT is routed under replace.
      await server().post(`/authors/${authors[1]}/books`).send([books[0]]).expect(404);
    });
  });

  describe('jsonPatch', () => {
    it('gives the policy what the document writes, shaped as a PATCH body', async () => {
      const send = (document: unknown) =>
        server().patch(`/priced/${books[1]}`).set('Content-Type', PATCH_TYPE).send(JSON.stringify(document));
      policyBodies.length = 0;
      const refused = await send([
        { op: 'test', path: '/title', value: 'Book 1' },
        { op: 'replace', path: '/pages', value: 999 },
      ]).expect(403);
      expect(refused.body.code).toBe('SVC_FORBIDDEN');
      expect((await t.dataSource.getRepository(Book).findOneByOrFail({ id: books[1] })).pages).not.toBe(999);
      await server().patch(`/priced/${books[1]}`).send({ pages: 999 }).expect(403);
      await send([
        { op: 'replace', path: '/title', value: 'Priced' },
        { op: 'remove', path: '/isbn' },
        { op: 'add', path: '/tags/-', value: [tags[0], tags[1]] },
      ]).expect(200);
      await send([{ op: 'remove', path: `/tags/${tags[0]}` }]).expect(200);
      expect(policyBodies[0]).toEqual({ pages: 999 });
      expect(policyBodies.slice(-2)).toEqual([
        { title: 'Priced', isbn: null, tags: { add: [tags[0], tags[1]], remove: [] } },
        { tags: { add: [], remove: [String(tags[0])] } },
      ]);
    });

    it('applies fields and members from one RFC 6902 document', async () => {
      const response = await server()
        .patch(`/patched/${books[0]}`)
        .set('Content-Type', PATCH_TYPE)
        .send(
          JSON.stringify([
            { op: 'test', path: '/title', value: 'Book 0' },
            { op: 'replace', path: '/title', value: 'Patched' },
            { op: 'add', path: '/tags/-', value: tags[3] },
            { op: 'remove', path: `/tags/${tags[0]}` },
            { op: 'test', path: `/tags/${tags[3]}`, value: true },
          ]),
        )
        .expect(200);
      expect(response.body).toMatchObject({ id: books[0], title: 'Patched' });
      expect(await tagIdsOf(books[0]!)).toEqual([tags[1], tags[3]]);
    });

    it('rolls a half-applied patch back when a later operation fails', async () => {
      const before = await tagIdsOf(books[0]!);
      const response = await server()
        .patch(`/patched/${books[0]}`)
        .set('Content-Type', PATCH_TYPE)
        .send(
          JSON.stringify([
            { op: 'replace', path: '/title', value: 'Half' },
            { op: 'add', path: '/tags/-', value: tags[2] },
            { op: 'add', path: '/tags/-', value: 424242 },
          ]),
        )
        .expect(422);
      expect(response.body.code).toBe('SVC_UNRESOLVED_RELATION');
      expect((await t.dataSource.getRepository(Book).findOneByOrFail({ id: books[0] })).title).toBe('Patched');
      expect(await tagIdsOf(books[0]!)).toEqual(before);
    });

    it('answers 409 on a failed test, 400 on a bad path or op, and still takes plain JSON patches', async () => {
      const send = (document: unknown) =>
        server().patch(`/patched/${books[0]}`).set('Content-Type', PATCH_TYPE).send(JSON.stringify(document));
      expect((await send([{ op: 'test', path: '/title', value: 'nope' }]).expect(409)).body.code).toBe('SVC_CONFLICT');
      expect((await send([{ op: 'move', path: '/title', from: '/isbn' }]).expect(400)).body.code).toBe(
        'SVC_VALIDATION_FAILED',
      );
      expect((await send([{ op: 'replace', path: '/nope', value: 1 }]).expect(400)).body.errors[0].code).toBe(
        'not_writable',
      );
      expect((await send([{ op: 'remove', path: '/tags/-' }]).expect(400)).body.code).toBe('SVC_VALIDATION_FAILED');
      await server().patch(`/patched/${books[0]}`).send({ pages: 12 }).expect(200);
    });

    it('takes JSON Patch by its media type only, and never tests a field select.fields hides', async () => {
      const hiddenTest = [{ op: 'test', path: '/isbn', value: null }];
      await server()
        .patch(`/patched/${books[0]}`)
        .set('Content-Type', PATCH_TYPE)
        .send(JSON.stringify(hiddenTest))
        .expect(400);
      const asJson = await server()
        .patch(`/patched/${books[0]}`)
        .send([{ op: 'replace', path: '/title', value: 'x' }]);
      expect(asJson.status).toBe(400);
      const elsewhere = await server()
        .patch(`/books/${books[0]}`)
        .set('Content-Type', PATCH_TYPE)
        .send(JSON.stringify([{ op: 'replace', path: '/title', value: 'x' }]))
        .expect(415);
      expect(elsewhere.body.code).toBe('SVC_UNSUPPORTED_MEDIA_TYPE');
    });
  });
});

describe('relation array write bootstrap errors', () => {
  const boot = (entity: Function, relations: object) =>
    bootstrapFailure({
      db: { name: 'sqlite' },
      suite: 'e2e_relation_writes_boot',
      entities: BOOKSTORE_ENTITIES,
      controllers: [svcController('x', entity, { relations } as never)],
    });

  it('refuses an @Override of a relation array write', async () => {
    @Svc(Book, { relations: { tags: { write: { strategy: 'resource' } } } })
    @Controller('o')
    class TagsOverrideController {
      @Override('tags:add')
      add() {
        return undefined;
      }
    }
    const error = await bootstrapFailure({
      db: { name: 'sqlite' },
      suite: 'e2e_relation_writes_boot',
      entities: BOOKSTORE_ENTITIES,
      controllers: [TagsOverrideController],
    });
    expect(error.message).toContain("@Override('tags:add')");
  });

  it('refuses jsonPatch beside a patchOne handler, which a JSON Patch would bypass', async () => {
    const error = await bootstrapFailure({
      db: { name: 'sqlite' },
      suite: 'e2e_relation_writes_boot',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('y', Book, {
          relations: { tags: { write: { strategy: 'jsonPatch' } } },
          operations: { findOne: true, patchOne: { handler: () => null } },
        }),
      ],
    });
    expect(error.message).toContain('relations.tags.write.strategy');
    expect(error.message).toContain('patchOne');
  });

  it('refuses write on a to-one relation, and an unknown strategy', async () => {
    expect((await boot(Book, { author: { write: { strategy: 'replace' } } })).message).toContain('to-one');
    expect((await boot(Book, { tags: { write: { strategy: 'merge' } } })).message).toContain(
      'relations.tags.write.strategy',
    );
  });
});
