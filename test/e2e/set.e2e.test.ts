/** set: server-forced values overwrite the client's on createOne and updateOne, never on patchOne. */
import request from 'supertest';
import { BOOKSTORE_ENTITIES, Book } from '../fixtures/bookstore-entities';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

const header = (context: Record<string, unknown>, name: string) =>
  (context['request'] as { headers: Record<string, string | undefined> }).headers[name];

describe.each(TEST_DATABASES)('set on $name', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_set',
      entities: BOOKSTORE_ENTITIES,
      controllers: [
        svcController('books', Book, { set: () => ({ published: false }) }),
        svcController('titled', Book, { set: () => ({ title: 'Forced title' }) }),
        // A set function that trusts the body to hold a title.
        svcController('trusting', Book, {
          set: { create: ({ body }) => ({ isbn: (body as { title: string }).title.toUpperCase() }) },
        }),
        svcController('stamped', Book, {
          set: {
            create: ({ context }) => ({ isbn: header(context, 'x-isbn') ?? null, pages: 1 }),
            update: ({ body }) => ({ title: String((body as { title?: string }).title ?? '').toUpperCase() }),
          },
        }),
      ],
    });
  });
  afterAll(() => t.close());

  it('overwrites what the client sent on createOne and updateOne', async () => {
    const created = await request(t.server).post('/books').send({ title: 'A', published: true }).expect(201);
    expect(created.body.published).toBe(false);
    const replaced = await request(t.server)
      .put(`/books/${created.body.id}`)
      .send({ title: 'A', published: true })
      .expect(200);
    expect(replaced.body.published).toBe(false);
  });

  it('fills a required field, so the client need not send it, on createOne and on the replace of updateOne', async () => {
    const created = await request(t.server).post('/titled').send({ pages: 3 }).expect(201);
    expect(created.body).toMatchObject({ title: 'Forced title', pages: 3 });
    const replaced = await request(t.server).put(`/titled/${created.body.id}`).send({ pages: 4 }).expect(200);
    expect(replaced.body).toMatchObject({ title: 'Forced title', pages: 4 });
  });

  it('answers a required field left out with 400, even when the set function relied on it', async () => {
    const res = await request(t.server).post('/trusting').send({ pages: 1 }).expect(400);
    expect(res.body).toMatchObject({ code: 'SVC_VALIDATION_FAILED', errors: [{ field: 'title', code: 'required' }] });
    const created = await request(t.server).post('/trusting').send({ title: 'loud' }).expect(201);
    expect(created.body.isbn).toBe('LOUD');
    await request(t.server).post('/titled').send({ pages: 'many' }).expect(400);
  });

  it('never runs on patchOne', async () => {
    const created = await request(t.server).post('/books').send({ title: 'B' }).expect(201);
    const patched = await request(t.server).patch(`/books/${created.body.id}`).send({ published: true }).expect(200);
    expect(patched.body.published).toBe(true);
  });

  it('takes different functions for create and update, with the body and the context', async () => {
    const created = await request(t.server)
      .post('/stamped')
      .set('x-isbn', 'S-1')
      .send({ title: 'low', pages: 50 })
      .expect(201);
    expect(created.body).toMatchObject({ isbn: 'S-1', pages: 1, title: 'low' });
    const replaced = await request(t.server)
      .put(`/stamped/${created.body.id}`)
      .send({ title: 'low', pages: 50 })
      .expect(200);
    expect(replaced.body).toMatchObject({ title: 'LOW', pages: 50 });
  });
});

describe('set bootstrap errors', () => {
  it.each([
    ['a patch slot', { set: { patch: () => ({}) } }, 'set.patch'],
    ['a non-function', { set: 5 }, 'set'],
  ])('refuses %s', async (_name, config, mention) => {
    const error = await bootstrapFailure({
      db: { name: 'sqlite' },
      suite: 'e2e_set_boot',
      entities: BOOKSTORE_ENTITIES,
      controllers: [svcController('x', Book, config as never)],
    });
    expect(error.message).toContain(mention);
  });
});
