/**
 * Write outcomes: every write path yields what it did once it committed (entity, operation, event, key, the row before
 * and after as the caller may see it, the changed fields), and nothing for a write that rolled back. The engine's
 * response carries them, and the one after-commit step consumes them.
 */
import { SvcException, type EntityConfig, type SvcContext } from '@svc/core';
import { type WriteOutcome } from '@svc/core/spi';
import { SvcRegistry } from '@svc/nestjs';
import { Book, BOOKSTORE_ENTITIES, Tag } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

const repo = (context: SvcContext) => context.repository!;

const BOOKS: EntityConfig = {
  // A policy that reads the row: every single-row write reads and locks it first, so its outcome has the row before.
  policy: ({ entity }) => entity?.['title'] !== 'locked',
  select: { fields: { exclude: ['isbn'] } },
  relations: { tags: { write: { strategy: 'resource' } } },
  operations: {
    findMany: true,
    findOne: true,
    createOne: true,
    updateOne: true,
    patchOne: true,
    deleteOne: true,
    restoreOne: true,
    purgeOne: true,
    publishOne: {
      meta: { routes: { method: 'PATCH', path: ':id/publish', successStatus: 200 } },
      realtimeEvent: 'updated',
      handler: async (input, context) => {
        await repo(context).update(input.key!, { published: true });
        return repo(context).findOne({ key: input.key! });
      },
    },
    failOne: {
      meta: { routes: { method: 'POST', path: ':id/fail' } },
      handler: async (input, context) => {
        await repo(context).update(input.key!, { title: 'rolled back' });
        throw new SvcException('SVC_CONFLICT', { detail: 'refused after writing' });
      },
    },
  },
};
const Books = svcController('books', Book, BOOKS);
/** No policy, scope or If-Match: on a database that returns written rows, a write is one statement, with no pre-read. */
const LeanBooks = svcController('lean-books', Book);
const PatchedBooks = svcController('patched-books', Book, {
  relations: { tags: { write: { strategy: 'jsonPatch' } } },
});
const HandledBooks = svcController('handled-books', Book, {
  operations: {
    findOne: true,
    patchOne: {
      handler: async (input, context) => {
        await repo(context).update(input.key!, input.body as Record<string, unknown>);
        return repo(context).findOne({ key: input.key! });
      },
    },
  },
});

describe.each(TEST_DATABASES)('Write outcomes on $name', (db) => {
  let t: TestApp;
  let tagIds: number[];

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_write_outcomes',
      entities: BOOKSTORE_ENTITIES,
      controllers: [Books, PatchedBooks, HandledBooks, LeanBooks],
    });
    tagIds = (await t.dataSource.getRepository(Tag).save([{ name: 'a' }, { name: 'b' }])).map((tag) => tag.id);
  });

  afterAll(async () => {
    await t?.close();
  });

  const engine = (controller: Function) => t.app.get(SvcRegistry).engineFor(controller);
  const run = async (controller: Function, request: Parameters<ReturnType<typeof engine>['execute']>[0]) =>
    (await engine(controller).execute(request)).outcomes ?? [];
  const created = async (title: string) => {
    const [outcome] = await run(Books, { operation: 'createOne', body: { title, isbn: `${title}-isbn` } });
    return outcome!.key!['id'] as number;
  };

  it('createOne: created, the key, no row before, the row after as served, every served field changed', async () => {
    const [outcome, ...rest] = await run(Books, { operation: 'createOne', body: { title: 'New', isbn: 'n-1' } });
    expect(rest).toEqual([]);
    expect(outcome).toMatchObject<Partial<WriteOutcome>>({
      entity: 'Book',
      operation: 'createOne',
      event: 'created',
      key: { id: expect.any(Number) },
      before: null,
      after: expect.objectContaining({ title: 'New', pages: 0 }),
    });
    expect(outcome!.after).not.toHaveProperty('isbn');
    expect(outcome!.changed).toEqual(expect.arrayContaining(['id', 'title', 'pages']));
    expect(outcome!.changed).not.toContain('isbn');
  });

  it('patchOne and updateOne: the rows before and after, and only the fields that changed', async () => {
    const id = await created('Before');
    const [patched] = await run(Books, { operation: 'patchOne', id: String(id), body: { pages: 42 } });
    expect(patched).toMatchObject({ event: 'patched', key: { id }, before: { pages: 0 }, after: { pages: 42 } });
    expect(patched!.changed).toEqual(expect.arrayContaining(['pages']));
    expect(patched!.changed).not.toContain('title');
    const [updated] = await run(Books, { operation: 'updateOne', id: String(id), body: { title: 'After' } });
    expect(updated).toMatchObject({ event: 'updated', before: { title: 'Before' }, after: { title: 'After' } });
  });

  it('a write with nothing to guard: the row before when it was read, else the fields it wrote as changed', async () => {
    const id = await created('Lean');
    const [patched] = await run(LeanBooks, { operation: 'patchOne', id: String(id), body: { pages: 7 } });
    expect(patched).toMatchObject({ event: 'patched', key: { id }, after: { title: 'Lean', pages: 7 } });
    // Where the database returns the updated row (PostgreSQL, SQLite), the patch is one statement with no pre-read.
    if (db.name === 'postgres' || db.name === 'sqlite') {
      expect(patched!.before).toBeUndefined();
      expect(patched!.changed).toEqual(['pages']);
    } else {
      expect(patched!.before).toMatchObject({ pages: 0 });
    }
  });

  it('deleteOne, restoreOne and purgeOne: deleted, restored, deleted', async () => {
    const id = await created('Gone');
    const [deleted] = await run(Books, { operation: 'deleteOne', id: String(id) });
    expect(deleted).toMatchObject({ event: 'deleted', key: { id }, before: { title: 'Gone' }, after: null });
    const [restored] = await run(Books, { operation: 'restoreOne', id: String(id) });
    expect(restored).toMatchObject({ event: 'restored', after: { title: 'Gone', deletedAt: null } });
    expect(restored!.changed).toContain('deletedAt');
    await run(Books, { operation: 'deleteOne', id: String(id) });
    const [purged] = await run(Books, { operation: 'purgeOne', id: String(id) });
    expect(purged).toMatchObject({ event: 'deleted', operation: 'purgeOne', after: null });
  });

  it('a relation array write: updated of the parent, the relation changed, its target touched', async () => {
    const id = await created('Tagged');
    const [added] = await run(Books, { operation: 'tags:add', id: String(id), body: tagIds });
    expect(added).toMatchObject({ event: 'updated', key: { id }, changed: ['tags'], touches: ['Tag'] });
    const [again] = await run(Books, { operation: 'tags:add', id: String(id), body: tagIds });
    expect(again).toMatchObject({ changed: [], touches: [] });
  });

  it('a JSON Patch: patched, with its fields and relations changed', async () => {
    const id = await created('Patched');
    const [outcome] = await run(PatchedBooks, {
      operation: 'patchOne',
      id: String(id),
      jsonPatch: true,
      body: [
        { op: 'replace', path: '/pages', value: 9 },
        { op: 'add', path: '/tags/-', value: tagIds[0] },
      ],
    });
    expect(outcome).toMatchObject({ event: 'patched', touches: ['Tag'] });
    expect(outcome!.changed).toEqual(expect.arrayContaining(['pages', 'tags']));
  });

  it('a custom write with realtimeEvent: that event, the locked row before and the row read back after', async () => {
    const id = await created('Custom');
    const [outcome] = await run(Books, { operation: 'publishOne', id: String(id) });
    expect(outcome).toMatchObject({
      operation: 'publishOne',
      event: 'updated',
      key: { id },
      before: { published: false },
      after: { published: true },
    });
    expect(outcome!.changed).toContain('published');
    expect(outcome!.changed).not.toContain('title');
  });

  it('a replacement handler of a standard write: its event, the locked row before and the result after', async () => {
    const id = await created('Handled');
    const [outcome] = await run(HandledBooks, { operation: 'patchOne', id: String(id), body: { pages: 5 } });
    expect(outcome).toMatchObject({ event: 'patched', key: { id }, before: { pages: 0 }, after: { pages: 5 } });
  });

  it('nothing for a write that rolled back, and reads yield none', async () => {
    const id = await created('Kept');
    const error = await engine(Books)
      .execute({ operation: 'failOne', id: String(id) })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'SVC_CONFLICT' });
    expect((await engine(Books).execute({ operation: 'findOne', id: String(id) })).outcomes).toBeUndefined();
    expect((await t.dataSource.getRepository(Book).findOneByOrFail({ id })).title).toBe('Kept');
  });
});
