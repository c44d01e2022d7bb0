/**
 * like and ilike per database. `like` keeps the database's own case rule: case-sensitive on PostgreSQL,
 * case-insensitive on SQLite and MySQL/MariaDB with their default collations. `ilike` and contains/startsWith/endsWith
 * are case-insensitive everywhere. In like patterns `%` and `_` are wildcards and a backslash is an ordinary character.
 */
import request from 'supertest';
import { BOOKSTORE_ENTITIES, Book } from '../fixtures/bookstore-entities';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

const TITLES = ['Dune', 'Dune Messiah', 'dune notes', 'Duet', 'a\\b', '50% off', 'x_y'];

describe.each(TEST_DATABASES)('like and ilike on $name', (db) => {
  let t: TestApp;
  const titles = async (query: string) =>
    ((await request(t.server).get(`/books?${query}&sort=id`).expect(200)).body.items as Book[]).map(
      (book) => book.title,
    );

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_like',
      entities: BOOKSTORE_ENTITIES,
      controllers: [svcController('books', Book)],
    });
    for (const title of TITLES) await request(t.server).post('/books').send({ title }).expect(201);
  });
  afterAll(() => t.close());

  it('treats % and _ in a like pattern as wildcards', async () => {
    expect(await titles('filter[title][like]=Du%25')).toEqual([
      'Dune',
      'Dune Messiah',
      ...(db.name === 'postgres' ? [] : ['dune notes']),
      'Duet',
    ]);
    expect(await titles('filter[title][like]=Du_t')).toEqual(['Duet']);
  });

  it(`${db.name === 'postgres' ? 'is case-sensitive' : 'is case-insensitive'} for like, as the database is`, async () => {
    expect(await titles('filter[title][like]=dune')).toEqual(db.name === 'postgres' ? [] : ['Dune']);
  });

  it('is case-insensitive for ilike everywhere', async () => {
    expect(await titles('filter[title][ilike]=DUNE%25')).toEqual(['Dune', 'Dune Messiah', 'dune notes']);
  });

  it('matches a backslash in a like pattern as itself, and a trailing backslash is no error', async () => {
    expect(await titles(`filter[title][like]=${encodeURIComponent('a\\b')}`)).toEqual(['a\\b']);
    expect(await titles(`filter[title][like]=${encodeURIComponent('a\\')}`)).toEqual([]);
  });

  it('matches % and _ literally in contains, startsWith and endsWith', async () => {
    expect(await titles(`filter[title][contains]=${encodeURIComponent('0%')}`)).toEqual(['50% off']);
    expect(await titles('filter[title][startsWith]=x_')).toEqual(['x_y']);
    expect(await titles('filter[title][endsWith]=_y')).toEqual(['x_y']);
    expect(await titles('filter[title][contains]=_')).toEqual(['x_y']);
  });
});
