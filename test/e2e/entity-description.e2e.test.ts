/**
 * The description API: each served entity described once from its resolved config (fields, write slots, allowlists,
 * pagination, operations with their routes), listed by the Svc instance that the Nest module exposes.
 */
import type { EntityDescription, OperationDescription } from '@svc/core';
import { SvcRegistry } from '@svc/nestjs';
import { z } from 'zod';
import { Author, Book, BOOKSTORE_ENTITIES, Note, Tag } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

const Books = svcController('books', Book, {
  select: { fields: { exclude: ['isbn'] } },
  filter: { fields: { title: ['eq', 'contains'], pages: ['gte', 'lte'], 'author.name': ['eq'] } },
  sort: { fields: ['title', 'pages', 'author.name'], default: ['-pages'] },
  include: { fields: ['author', 'tags'] },
  search: { fields: ['title'] },
  relations: { tags: { write: { strategy: 'resource', maxMembers: 50 } } },
  schema: { input: { create: ['title', 'pages', 'author'], update: ['title', 'pages', 'tags'] } },
  operations: {
    findMany: true,
    findOne: true,
    createOne: true,
    updateOne: true,
    patchOne: true,
    deleteOne: true,
    publishOne: {
      meta: { routes: { method: 'PATCH', path: ':id/publish', successStatus: 200 } },
      realtimeEvent: 'updated',
      handler: () => null,
    },
    shortMany: { kind: 'read', cardinality: 'many', handler: () => ({ entities: [], total: 0 }) },
    hiddenOne: { meta: { routes: { enabled: false } }, handler: () => null },
  },
});
const Authors = svcController('authors', Author, { pagination: { strategy: 'cursor' } });
const Notes = svcController('notes', Note, { identifier: { field: 'text' } });

describe.each(TEST_DATABASES)('The description API on $name', (db) => {
  let t: TestApp;
  let books: EntityDescription;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_description',
      entities: BOOKSTORE_ENTITIES,
      controllers: [Books, Authors, Notes, svcController('tags', Tag)],
      svc: { operations: { deleteOne: false } },
    });
    books = t.app.get(SvcRegistry).instance.describe()[0]!;
  });

  afterAll(async () => {
    await t?.close();
  });

  const operation = (id: string) => books.operations.find((candidate) => candidate.id === id);

  it('lists every served entity through the instance the Nest module exposes', () => {
    const registry = t.app.get(SvcRegistry);
    expect(registry.instance.describe().map((entity) => entity.name)).toEqual(['Book', 'Author', 'Note', 'Tag']);
    expect(registry.controllers().map(({ controller }) => controller)).toEqual(
      expect.arrayContaining([Books, Authors, Notes]),
    );
    expect(registry.serviceFor(Book).describe()).toBe(books);
  });

  it('describes the fields with kind, nullability, enum values, generation and readability', () => {
    const field = (name: string) => books.fields.find((candidate) => candidate.name === name);
    expect(field('id')).toMatchObject({ kind: 'integer', primary: true, generated: true, readable: true });
    expect(field('rating')).toMatchObject({ kind: 'number', nullable: true });
    expect(field('isbn')).toMatchObject({ readable: false, length: 20 });
    expect(field('deletedAt')).toMatchObject({ deleteMarker: true });
    expect(field('authorId')).toMatchObject({ foreignKeyOf: 'author' });
    const notes = t.app.get(SvcRegistry).serviceFor(Note).describe();
    expect(notes.fields.find((candidate) => candidate.name === 'priority')).toMatchObject({
      kind: 'enum',
      enumValues: ['low', 'normal', 'high'],
    });
    expect(notes.lookup).toEqual({ param: 'text', fields: ['text'] });
  });

  it('describes the write slots: writable fields, references and required fields', () => {
    expect(books.write.create.fields.map((field) => field.name)).toEqual(['title', 'pages', 'author']);
    expect(books.write.create.required).toEqual(['title']);
    expect(books.write.create.fields.find((field) => field.name === 'author')).toMatchObject({
      kind: 'reference',
      nullable: true,
      target: { entity: 'Author', key: 'id', keyKind: 'integer' },
    });
    expect(books.write.update.fields.map((field) => field.name)).toEqual(['title', 'pages']);
  });

  it('describes the query allowlists, the outputs and include', () => {
    const filterable = (name: string) => books.filter.fields.find((field) => field.name === name);
    expect(filterable('title')).toEqual({ name: 'title', kind: 'string', operators: ['eq', 'contains'] });
    expect(filterable('pages')).toEqual({ name: 'pages', kind: 'integer', operators: ['gte', 'lte'] });
    expect(filterable('author.name')).toEqual({ name: 'author.name', kind: 'string', operators: ['eq'] });
    expect(books.filter.fields.map((field) => field.name)).not.toContain('isbn');
    expect(books.filter.limits).toMatchObject({ maxTerms: 100, maxInValues: 100 });
    expect(books.sort).toEqual({
      fields: ['title', 'pages', 'author.name'],
      default: [{ field: 'pages', direction: 'desc' }],
    });
    expect(books.output.item).not.toContain('isbn');
    expect(books.search).toEqual({ fields: ['title'], mode: 'substring' });
    expect(books.include.relations).toEqual([
      { name: 'author', target: 'Author', maxDepth: 2 },
      { name: 'tags', target: 'Tag', maxDepth: 2 },
    ]);
    expect(books.relations.find((relation) => relation.name === 'tags')).toMatchObject({
      kind: 'many-to-many',
      includable: true,
      write: { strategy: 'resource', maxMembers: 50 },
    });
  });

  it('describes the pagination strategy and the parameters it takes', () => {
    expect(books.pagination).toMatchObject({ strategy: 'offset', params: ['limit', 'offset'], ownsSort: false });
    const authors = t.app.get(SvcRegistry).serviceFor(Author).describe();
    expect(authors.pagination).toMatchObject({ strategy: 'cursor', params: ['limit', 'cursor'] });
  });

  it('describes the operations with their route, status, kind, cardinality, body and state', () => {
    expect(operation('findMany')).toEqual<OperationDescription>({
      id: 'findMany',
      standard: true,
      kind: 'read',
      cardinality: 'many',
      state: 'on',
      route: { method: 'GET', path: '' },
      successStatus: 200,
      takesId: false,
      body: 'none',
      query: 'list',
      answers: 'list',
      conditional: { ifNoneMatch: false, ifMatch: 'none' },
      summary: 'List Books',
      wording: {
        title: 'List Book',
        sentence: 'List Book rows.',
      },
      hints: { readOnly: true },
      schemas: expect.objectContaining({ query: expect.any(Object) }) as OperationDescription['schemas'],
    });
    expect(operation('findOne')).toMatchObject({ route: { method: 'GET', path: ':id' }, query: 'item' });
    expect(operation('createOne')).toMatchObject({ kind: 'write', body: 'create', successStatus: 201 });
    expect(operation('patchOne')).toMatchObject({ route: { method: 'PATCH', path: ':id' }, body: 'patch' });
    expect(operation('publishOne')).toMatchObject({
      standard: false,
      kind: 'write',
      cardinality: 'one',
      route: { method: 'PATCH', path: ':id/publish' },
      successStatus: 200,
      body: 'custom',
      realtimeEvent: 'updated',
    });
    expect(operation('shortMany')).toMatchObject({ kind: 'read', cardinality: 'many', query: 'list' });
    expect(operation('hiddenOne')).not.toHaveProperty('route');
    expect(operation('tags:add')).toMatchObject({
      route: { method: 'POST', path: ':id/tags' },
      body: 'members',
      relation: { name: 'tags', action: 'add' },
    });
    // Off in the global operations map, for an entity without a map of its own: disabled (its route answers 405).
    const tags = t.app.get(SvcRegistry).serviceFor(Tag).describe();
    expect(tags.operations.find((candidate) => candidate.id === 'deleteOne')).toMatchObject({
      state: 'disabled',
      route: { method: 'DELETE', path: ':id' },
    });
    expect(books.operations.map((candidate) => candidate.id)).not.toContain('restoreOne');
  });

  it('is frozen', () => {
    expect(Object.isFrozen(books)).toBe(true);
    expect(Object.isFrozen(books.fields[0])).toBe(true);
  });
});

/** What OpenAPI needs beyond the rest: a validator's JSON Schema, string lengths of write fields, `meta` docs. */
describe.each(TEST_DATABASES)('The description API for documentation on $name', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    const create = z.object({ title: z.string().max(200), pages: z.number().int().optional() });
    t = await createTestApp({
      db,
      suite: 'e2e_description_docs',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book, {
          schema: { input: { create, update: ['title', 'pages'] } },
          operations: {
            findMany: { meta: { summary: 'All books', description: 'Every book.', deprecated: true, tags: ['Shelf'] } },
            findOne: true,
          },
        }),
      ],
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  it("carries the JSON Schema a Standard Schema validator exposes, and each string field's length", () => {
    const books = t.app.get(SvcRegistry).instance.describe()[0]!;
    expect(books.write.create.jsonSchema).toMatchObject({
      type: 'object',
      properties: { title: { type: 'string', maxLength: 200 } },
      required: ['title'],
    });
    expect(books.write.update.jsonSchema).toBeUndefined();
    expect(books.write.update.fields.find((field) => field.name === 'title')).toMatchObject({ length: 200 });
  });

  it("carries each operation's meta summary, description, deprecated and tags as docs", () => {
    const books = t.app.get(SvcRegistry).instance.describe()[0]!;
    expect(books.operations.find((operation) => operation.id === 'findMany')!.docs).toEqual({
      summary: 'All books',
      description: 'Every book.',
      deprecated: true,
      tags: ['Shelf'],
    });
    expect(books.operations.find((operation) => operation.id === 'findOne')).not.toHaveProperty('docs');
  });
});

describe.each(TEST_DATABASES)('The description API of include on $name', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_description_include',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book, {
          include: { fields: ['author', 'tags'] },
          relations: { author: { read: { strategy: 'key' } } },
        }),
        svcController('authors', Author),
        svcController('tags', Tag),
      ],
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('marks a relation read by key as keysOnly (its included rows hold only the key)', () => {
    const books = t.app.get(SvcRegistry).instance.describe()[0]!;
    expect(books.include.relations.find((relation) => relation.name === 'author')).toMatchObject({ keysOnly: true });
    expect(books.include.relations.find((relation) => relation.name === 'tags')).not.toHaveProperty('keysOnly');
  });
});
