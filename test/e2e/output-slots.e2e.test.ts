/** schema.output.item / .list: a field list or a class with runtime fields replaces the select projection. */
import type { EntityConfig } from '@svc/core';
import request from 'supertest';
import { BOOKSTORE_ENTITIES, Book } from '../fixtures/bookstore-entities';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

class BookCard {
  id = 0;
  title = '';
  isbn: string | null = null;
}

/** Declared fields only: no runtime shape, so it does not replace the projection. */
class ShapelessBook {
  declare id: number;
}

describe.each(TEST_DATABASES)('output slots on $name', (db) => {
  let t: TestApp;
  let id: number;
  const keys = (value: object) => Object.keys(value).sort();

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_output_slots',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('cards', Book, {
          select: { fields: { exclude: ['isbn'] } },
          schema: { output: { item: ['id', 'title', 'pages'], list: BookCard } },
        }),
        svcController('closed', Book, { schema: { output: { item: [] } } }),
        svcController('shapeless', Book, { schema: { output: { item: ShapelessBook } } }),
      ],
    });
    const created = await request(t.server).post('/cards').send({ title: 'Card', pages: 3, isbn: 'X-1' }).expect(201);
    id = created.body.id;
  });
  afterAll(() => t.close());

  it('serves the item slot on single-row reads and writes', async () => {
    expect(keys((await request(t.server).get(`/cards/${id}`).expect(200)).body)).toEqual(['id', 'pages', 'title']);
    expect(keys((await request(t.server).patch(`/cards/${id}`).send({ pages: 4 }).expect(200)).body)).toEqual([
      'id',
      'pages',
      'title',
    ]);
  });

  it('serves a class-shaped list slot, even where it is wider than select.fields', async () => {
    const list = await request(t.server).get('/cards').expect(200);
    expect(list.body.items[0]).toEqual({ id, title: 'Card', isbn: 'X-1' });
  });

  it('lets select= narrow the slot', async () => {
    const list = await request(t.server).get('/cards?select=title').expect(200);
    expect(list.body.items[0]).toEqual({ title: 'Card' });
  });

  it('serves {} for an empty item field list, and the default projection for a class without runtime fields', async () => {
    expect((await request(t.server).get(`/closed/${id}`).expect(200)).body).toEqual({});
    expect(keys((await request(t.server).get(`/shapeless/${id}`).expect(200)).body)).toContain('title');
  });
});

describe('output slot bootstrap errors', () => {
  const cases: [string, EntityConfig, string][] = [
    ['an unknown column in a field list', { schema: { output: { item: ['titel'] } } }, "Did you mean 'title'"],
    [
      'a value that is no slot',
      { schema: { output: { list: { fields: 'title' } as never } } },
      'Standard Schema validator',
    ],
    ['an unknown slot', { schema: { output: { items: [] } as never } }, "Did you mean 'item'"],
  ];
  it.each(cases)('refuses %s', async (_name, config, mention) => {
    const error = await bootstrapFailure({
      db: { name: 'sqlite' },
      suite: 'e2e_output_boot',
      entities: BOOKSTORE_ENTITIES,
      controllers: [svcController('x', Book, config)],
    });
    expect(error.message).toContain(mention);
  });
});
