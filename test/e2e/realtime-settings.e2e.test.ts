/**
 * Realtime settings through the whole chain, read through a transport that records what it is given: the array form
 * of `realtime.subscribableFields`, `realtime: false` on one operation, per-call settings, and a failing transport
 * logged when no `onPublishError` is set. And `realtimeTransports` checked at bootstrap.
 */
import { ConfigurationException, createSvc, type RealtimeEvent, type SvcService } from '@svc/core';
import { type RealtimeTransport } from '@svc/core/spi';
import { typeorm } from '@svc/typeorm';
import { Column, Entity, PrimaryGeneratedColumn, type DataSource } from 'typeorm';
import { Book, BOOKSTORE_ENTITIES } from '../fixtures/bookstore-entities';
import { openTestDataSource, TEST_DATABASES } from '../support/test-databases';

@Entity('rs_item')
class Item {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 100 }) title!: string;
  @Column({ type: 'int', default: 0 }) rank!: number;
}

describe.each(TEST_DATABASES)('realtime settings on $name', (db) => {
  let dataSource: DataSource;
  const published: RealtimeEvent[] = [];
  const recorder: RealtimeTransport = { name: 'recorder', publish: async (event) => void published.push(event) };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

  beforeAll(async () => {
    dataSource = await openTestDataSource(db, 'e2e_realtime_settings', [Item]);
  });
  afterAll(() => dataSource.destroy());
  beforeEach(() => {
    published.length = 0;
  });

  it('narrows item and changed to the subscribableFields array, and silences an operation set to false', async () => {
    const svc = createSvc({ infrastructure: typeorm({ dataSource }), realtimeTransports: [recorder] });
    const items = svc.createCrud<Item>(Item, {
      realtime: { subscribableFields: ['title'] },
      operations: { createOne: true, patchOne: { realtime: false }, updateOne: true },
    });
    const created = await items.createOne({ title: 'one', rank: 1 });
    await items.patchOne(created.id, { rank: 2 });
    await items.updateOne(created.id, { title: 'two', rank: 3 });
    await settle();
    expect(published.map((event) => [event.event, event.item, event.changed])).toEqual([
      ['created', { title: 'one' }, ['title']],
      ['updated', { title: 'two' }, ['title']],
    ]);
  });

  it('takes realtime per call: false silences one write, an object turns events on for one write', async () => {
    const svc = createSvc({ infrastructure: typeorm({ dataSource }), realtimeTransports: [recorder] });
    const items = svc.createCrud<Item>(Item, { realtime: false });
    const quiet = await items.createOne({ title: 'quiet' });
    await items.patchOne(quiet.id, { rank: 5 }, { settings: { realtime: {} } });
    const loud = svc.createCrud<Item>(Item, { realtime: {} });
    await loud.createOne({ title: 'muted' }, { settings: { realtime: false } });
    await settle();
    expect(published.map((event) => [event.event, event.id])).toEqual([['patched', quiet.id]]);
  });

  it('logs a failing transport to the console when no onPublishError is set, and the write succeeds', async () => {
    const failing: RealtimeTransport = {
      name: 'failing',
      publish: async () => {
        throw new Error('nobody home');
      },
    };
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const svc = createSvc({ infrastructure: typeorm({ dataSource }), realtimeTransports: [failing] });
      const items = svc.createCrud<Item>(Item, { realtime: {} });
      await expect(items.createOne({ title: 'still written' })).resolves.toMatchObject({ title: 'still written' });
      await settle();
      expect(logged).toHaveBeenCalledWith(
        expect.stringContaining("realtime transport 'failing' failed to publish Item."),
        expect.objectContaining({ message: 'nobody home' }),
      );
    } finally {
      logged.mockRestore();
    }
  });

  it('refuses realtime with no transport, and a transport without publish, at bootstrap', () => {
    const bare = createSvc({ infrastructure: typeorm({ dataSource }) });
    expect(() => bare.createCrud(Item, { realtime: {} })).toThrow(/no transport carries its events/);
    expect(() => createSvc({ realtimeTransports: [{ name: 'x' } as never] })).toThrow(ConfigurationException);
  });
});

describe.each(TEST_DATABASES)('realtime subscriptions decided by the database on $name', (db) => {
  let dataSource: DataSource;
  const published: RealtimeEvent[] = [];
  const recorder: RealtimeTransport = { name: 'recorder', publish: async (event) => void published.push(event) };
  let books: SvcService<Book>;
  const as = (prefix: string) => ({ context: { prefix } });

  beforeAll(async () => {
    dataSource = await openTestDataSource(db, 'e2e_realtime_db_checks', BOOKSTORE_ENTITIES);
    const svc = createSvc({ infrastructure: typeorm({ dataSource }), realtimeTransports: [recorder] });
    books = svc.createCrud<Book>(Book, {
      realtime: {},
      filter: {
        fields: { title: ['eq', 'like'], pages: ['gte'], 'author.country': ['eq'] },
        // A `like` scope: its case rules differ between databases, so memory leaves it to the database.
        apply: ({ context }) => ({ title: { like: `${(context as { prefix?: string }).prefix ?? ''}%` } }),
      },
    });
  });
  afterAll(() => dataSource.destroy());
  beforeEach(() => {
    published.length = 0;
  });

  /** The one event a write publishes. */
  const eventOf = async (write: () => Promise<unknown>): Promise<RealtimeEvent> => {
    published.length = 0;
    await write();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(published).toHaveLength(1);
    return published[0]!;
  };

  it('asks the database about a live row that memory cannot decide', async () => {
    const alpha = await books.subscribe(as('Alpha'));
    const beta = await books.subscribe(as('Beta'));
    const created = await eventOf(() => books.createOne({ title: 'Alpha one' }, as('Alpha')));
    await expect(alpha.admit(created)).resolves.toBe(created);
    await expect(beta.admit(created)).resolves.toBeUndefined();
  });

  it('does not deliver a deleted row it can no longer ask the database about', async () => {
    const alpha = await books.subscribe(as('Alpha'));
    const book = await books.createOne({ title: 'Alpha gone' }, as('Alpha'));
    const deleted = await eventOf(() => books.deleteOne(book.id, as('Alpha')));
    expect(deleted.event).toBe('deleted');
    await expect(alpha.admit(deleted)).resolves.toBeUndefined();
  });

  it('decides a subscription filter in memory where it can, beside the database-decided scope', async () => {
    const big = await books.subscribe({ query: [['filter[pages][gte]', '300']], ...as('Gamma') });
    const thick = await eventOf(() => books.createOne({ title: 'Gamma thick', pages: 400 }, as('Gamma')));
    const thin = await eventOf(() => books.createOne({ title: 'Gamma thin', pages: 10 }, as('Gamma')));
    await expect(big.admit(thick)).resolves.toBe(thick);
    await expect(big.admit(thin)).resolves.toBeUndefined();
  });

  it('refuses a subscription filter on a relation path, a repeated id and an unknown key, naming them', async () => {
    await expect(books.subscribe({ query: [['filter[author.country][eq]', 'GB']], ...as('A') })).rejects.toMatchObject({
      code: 'SVC_QUERY_INVALID',
      errors: [expect.objectContaining({ param: 'filter' })],
    });
    await expect(
      books.subscribe({
        query: [
          ['id', '1'],
          ['id', '2'],
        ],
        ...as('A'),
      }),
    ).rejects.toMatchObject({ code: 'SVC_QUERY_INVALID', errors: [expect.objectContaining({ param: 'id' })] });
    await expect(books.subscribe({ query: { sort: 'title' } as never, ...as('A') })).rejects.toMatchObject({
      code: 'SVC_QUERY_UNSUPPORTED_PARAM',
      errors: [expect.objectContaining({ param: 'sort' })],
    });
  });
});
