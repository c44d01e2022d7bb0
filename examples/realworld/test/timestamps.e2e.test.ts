/**
 * Articles and comments keep `createdAt` and `updatedAt` to the millisecond through Svc's own writes (its TypeORM
 * adapter's insert and update), on SQLite and PostgreSQL: an update within the second of the create still moves
 * `updatedAt`, and both serialize as `2026-12-08T10:11:12.345Z`.
 */
import { TypeOrmRepositoryAdapter } from '@svc/typeorm';
import { DataSource } from 'typeorm';
import { databaseOptions } from '../src/database-options';
import { Article, User } from '../src/entities';
import { CONDUIT_DATABASES, freshDatabase, type FreshDatabase } from './conduit-server';

describe.each(CONDUIT_DATABASES)('article timestamps on %s', (database) => {
  let fresh: FreshDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    fresh = await freshDatabase(database);
    dataSource = await new DataSource(databaseOptions(fresh.location)).initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await fresh?.drop();
  });

  it('stores milliseconds on create, and moves updatedAt on an update within the same second', async () => {
    const users = new TypeOrmRepositoryAdapter(dataSource, User);
    const articles = new TypeOrmRepositoryAdapter(dataSource, Article);
    const author = await users.insert({ username: 'jake', email: 'jake@example.com', passwordHash: 'x' }, {});
    const { key } = await articles.insert(
      { slug: 'dragons', title: 'Dragons', description: 'd', body: 'b', author: author.key },
      {},
    );
    const created = (await articles.findOne({ key, view: 'all' }))!;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await articles.update(key, { body: 'changed' }, {});
    const updated = (await articles.findOne({ key, view: 'all' }))!;

    const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
    expect(JSON.stringify(created['createdAt'])).toMatch(/^"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z"$/);
    expect((created['createdAt'] as Date).toISOString()).toMatch(iso);
    expect(updated['createdAt']).toEqual(created['createdAt']);
    expect((updated['updatedAt'] as Date).getTime()).toBeGreaterThanOrEqual(
      (created['updatedAt'] as Date).getTime() + 5,
    );
    expect(Math.abs((updated['updatedAt'] as Date).getTime() - Date.now())).toBeLessThan(5_000);
  });
});
