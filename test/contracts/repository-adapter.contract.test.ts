/** The RepositoryAdapter contract, run against TypeOrmRepositoryAdapter on every configured database. */
import type { EntityKey, FilterNode, Row } from '@svc/core';
import type { AggregateArgs, AggregateGroup, FilterOperator, RepositoryAdapter } from '@svc/core/spi';
import { readEntityMetadata, typeorm, TypeOrmSession } from '@svc/typeorm';
import { Column, Entity, PrimaryGeneratedColumn, DataSource as TypeOrmDataSource } from 'typeorm';
import { Author, Book, BOOKSTORE_ENTITIES, Edition, Note, Review, Tag } from '../fixtures/bookstore-entities';
import { openTestDataSource, TEST_DATABASES } from '../support/test-databases';

const INJECTION = "'; DROP TABLE book; --";

/** Live books of the seed, by title; one more ("Gone") is soft-deleted. */
const SEED_BOOKS = [
  { title: 'Alpha', pages: 100, rating: 4.5, published: true, isbn: 'A-1', author: 'Ann' },
  { title: 'Beta', pages: 200, rating: null, published: false, isbn: null, author: 'Ann' },
  { title: 'Gamma 100%', pages: 300, rating: 3, published: true, isbn: 'G_1', author: 'Bob' },
  { title: 'Delta_x', pages: 50, rating: 2, published: false, isbn: null, author: null },
  { title: 'back\\slash', pages: 120, rating: 5, published: true, isbn: null, author: null },
  { title: INJECTION, pages: 1, rating: 1, published: false, isbn: null, author: null },
] as const;
const LIVE_TITLES = SEED_BOOKS.map((book) => book.title);

/** Column types the bookstore has none of, for the typed values of set-based updates; this suite's own table. */
@Entity('measure')
class Measure {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'decimal', precision: 10, scale: 2, nullable: true }) amount!: string | number | null;
  @Column({ type: 'bigint', nullable: true }) big!: string | number | null;
  @Column({ type: 'time', nullable: true }) clock!: string | null;
  @Column({ type: Date, nullable: true }) stamp!: Date | null;
  @Column({ type: 'varchar', length: 20, default: 'kept' }) label!: string;
}

/**
 * 170 text columns: 1,000 rows of it bind more values than one statement may carry on SQLite (32,766) and PostgreSQL
 * (65,535), and changes of 200 rows more than SQLite's. This suite's own table.
 */
@Entity('wide')
class Wide {
  @PrimaryGeneratedColumn() id!: number;
}
const WIDE_COLUMNS = Array.from({ length: 170 }, (_, index) => `c${index}`);
for (const name of WIDE_COLUMNS) Column({ type: 'varchar', length: 8, nullable: true })(Wide.prototype, name);

/** Decimal, bigint and date-time values to aggregate, in two buckets; this suite's own table. */
@Entity('tally')
class Tally {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 10 }) bucket!: string;
  @Column({ type: 'decimal', precision: 12, scale: 2, nullable: true }) amount!: string | number | null;
  @Column({ type: 'bigint', nullable: true }) big!: string | number | null;
  @Column({ type: Date, nullable: true }) stamp!: Date | null;
}

function cond(field: string, operator: FilterOperator, value?: unknown): FilterNode {
  return { kind: 'condition', field, operator, value };
}

function titlesOf(rows: readonly Row[]): string[] {
  return rows.map((row) => String(row['title'])).sort();
}

describe.each(TEST_DATABASES)('RepositoryAdapter (TypeORM) on $name', (db) => {
  let dataSource: TypeOrmDataSource;
  let books: RepositoryAdapter;
  let authors: RepositoryAdapter;
  let reviews: RepositoryAdapter;
  let editions: RepositoryAdapter;
  let notes: RepositoryAdapter;
  let tags: RepositoryAdapter;
  let measures: RepositoryAdapter;
  let wides: RepositoryAdapter;
  let tallies: RepositoryAdapter;
  const authorIds: Record<string, number> = {};
  const bookIds: Record<string, number> = {};

  beforeAll(async () => {
    dataSource = await openTestDataSource(db, 'adapter_contract', [...BOOKSTORE_ENTITIES, Measure, Wide, Tally]);
    const infrastructure = typeorm({ dataSource });
    books = infrastructure.createAdapter(Book);
    authors = infrastructure.createAdapter(Author);
    reviews = infrastructure.createAdapter(Review);
    editions = infrastructure.createAdapter(Edition);
    notes = infrastructure.createAdapter(Note);
    tags = infrastructure.createAdapter(Tag);
    measures = infrastructure.createAdapter(Measure);
    wides = infrastructure.createAdapter(Wide);
    tallies = infrastructure.createAdapter(Tally);
    await seed();
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  async function seed(): Promise<void> {
    for (const name of ['Ann', 'Bob', 'Cid']) {
      const saved = await dataSource.getRepository(Author).save({ name, country: name === 'Ann' ? 'UK' : null });
      authorIds[name] = saved.id;
    }
    for (const book of SEED_BOOKS) {
      const { author, ...columns } = book;
      const saved = await dataSource
        .getRepository(Book)
        .save({ ...columns, authorId: author === null ? null : authorIds[author] });
      bookIds[book.title] = saved.id;
    }
    const gone = await dataSource.getRepository(Book).save({ title: 'Gone', pages: 10, published: false });
    bookIds['Gone'] = gone.id;
    await dataSource.getRepository(Book).softDelete(gone.id);
  }

  function write<T>(work: (session: Parameters<Parameters<RepositoryAdapter['transaction']>[0]>[0]) => Promise<T>) {
    return books.transaction(work);
  }

  /** Statements other than transaction control. */
  const CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|START TRANSACTION|SAVEPOINT|RELEASE|SET TRANSACTION)\b/i;

  /** The SQL statements `work` sends (transaction control left out), and what it resolved to. */
  async function statementsOf<T>(work: () => Promise<T>): Promise<{ sql: string[]; result: T }> {
    const sql: string[] = [];
    const logger = dataSource.logger;
    const logQuery = logger.logQuery.bind(logger);
    const spy = jest.spyOn(logger, 'logQuery').mockImplementation((query, parameters, runner) => {
      if (!CONTROL.test(query)) sql.push(query);
      return logQuery(query, parameters, runner);
    });
    try {
      return { sql, result: await work() };
    } finally {
      spy.mockRestore();
    }
  }

  describe('metadata', () => {
    it('reads column kinds, lengths, defaults and the soft-delete marker of Book', () => {
      const columns = Object.fromEntries(books.metadata.columns.map((column) => [column.property, column]));
      expect(books.metadata.name).toBe('Book');
      expect(books.metadata.target).toBe(Book);
      expect(Object.keys(columns).sort()).toEqual(
        ['authorId', 'deletedAt', 'id', 'isbn', 'pages', 'published', 'rating', 'title', 'updatedAt'].sort(),
      );
      expect(columns['id']).toMatchObject({ kind: 'integer', primary: true, generated: true, hasDefault: true });
      expect(columns['title']).toMatchObject({ kind: 'string', length: 200, nullable: false, hasDefault: false });
      expect(columns['pages']).toMatchObject({ kind: 'integer', hasDefault: true, defaultValue: 0, generated: false });
      expect(columns['rating']).toMatchObject({ kind: 'number', nullable: true });
      expect(columns['published']).toMatchObject({ kind: 'boolean', hasDefault: true });
      expect(columns['authorId']).toMatchObject({ kind: 'integer', foreignKeyOf: 'author', nullable: true });
      expect(columns['updatedAt']).toMatchObject({ kind: 'datetime', generated: true, hasDefault: true });
      expect(columns['deletedAt']).toMatchObject({ kind: 'datetime', deleteMarker: true, nullable: true });
      expect(books.metadata.deleteMarker).toBe('deletedAt');
      expect(books.metadata.primaryKeys).toEqual(['id']);
    });

    it('reads relations with kind, target, owning side and join columns', () => {
      const relations = Object.fromEntries(books.metadata.relations.map((relation) => [relation.property, relation]));
      expect(relations['author']).toEqual({
        property: 'author',
        kind: 'many-to-one',
        target: Author,
        targetName: 'Author',
        owning: true,
        nullable: true,
        joinColumns: [{ property: 'authorId', referencedProperty: 'id', referencedKind: 'integer' }],
        inverse: 'books',
      });
      expect(relations['tags']).toMatchObject({ kind: 'many-to-many', target: Tag, owning: true });
      // A one-to-many names the relation back, which its nested members are written through.
      expect(relations['reviews']).toMatchObject({
        kind: 'one-to-many',
        target: Review,
        owning: false,
        inverse: 'book',
      });
    });

    it('leaves an unmapped foreign key to its relation (Review.book)', () => {
      expect(reviews.metadata.columns.map((column) => column.property).sort()).toEqual(['body', 'id', 'rating']);
      const book = reviews.metadata.relations.find((relation) => relation.property === 'book');
      expect(book).toMatchObject({ kind: 'many-to-one', owning: true, nullable: false });
      expect(book?.joinColumns).toEqual([{ referencedProperty: 'id', referencedKind: 'integer' }]);
    });

    it('reads a composite primary key in order', () => {
      expect(editions.metadata.primaryKeys).toEqual(['bookId', 'code']);
      expect(editions.metadata.columns.find((column) => column.property === 'code')).toMatchObject({
        kind: 'string',
        primary: true,
        generated: false,
      });
    });

    it('reads uuid, enum, json and date kinds', () => {
      const columns = Object.fromEntries(notes.metadata.columns.map((column) => [column.property, column]));
      expect(columns['id']).toMatchObject({ kind: 'uuid', primary: true, generated: true });
      expect(columns['priority']).toMatchObject({
        kind: 'enum',
        enumValues: ['low', 'normal', 'high'],
        hasDefault: true,
      });
      expect(columns['data']).toMatchObject({ kind: 'json', nullable: true });
      expect(columns['due']).toMatchObject({ kind: 'date' });
      expect(notes.metadata.deleteMarker).toBeUndefined();
      expect(authors.metadata.columns.find((column) => column.property === 'createdAt')).toMatchObject({
        kind: 'datetime',
        generated: true,
      });
    });

    it('is built once per entity and frozen', () => {
      const metadata = readEntityMetadata(dataSource, Book);
      expect(metadata).toBe(books.metadata);
      expect(Object.isFrozen(metadata)).toBe(true);
      expect(Object.isFrozen(metadata.columns)).toBe(true);
      expect(Object.isFrozen(metadata.columns[0])).toBe(true);
    });
  });

  describe('findMany', () => {
    const find = (where?: FilterNode) => books.findMany({ where, sort: [], count: false, view: 'live' });

    it('returns plain rows of own columns, hydrated by the driver', async () => {
      const { rows } = await find(cond('title', 'eq', 'Alpha'));
      expect(rows).toHaveLength(1);
      const row = rows[0] as Row;
      expect(Object.keys(row).sort()).toEqual(books.metadata.columns.map((column) => column.property).sort());
      expect(row).toMatchObject({ id: bookIds['Alpha'], title: 'Alpha', pages: 100, rating: 4.5, published: true });
      expect(row['authorId']).toBe(authorIds['Ann']);
      expect(row['updatedAt']).toBeInstanceOf(Date);
      expect(row['deletedAt']).toBeNull();
    });

    describe('with each filter operator', () => {
      const cases: [string, FilterNode, string[]][] = [
        ['eq', cond('pages', 'eq', 100), ['Alpha']],
        ['eq on a boolean', cond('published', 'eq', true), ['Alpha', 'Gamma 100%', 'back\\slash']],
        ['eq null as IS NULL', cond('rating', 'eq', null), ['Beta']],
        ['ne, excluding nulls', cond('rating', 'ne', 2), ['Alpha', 'Gamma 100%', 'back\\slash', INJECTION]],
        ['gt', cond('pages', 'gt', 120), ['Beta', 'Gamma 100%']],
        ['gt, a whole number against a fractional column', cond('rating', 'gt', 4), ['Alpha', 'back\\slash']],
        ['gte', cond('pages', 'gte', 120), ['Beta', 'Gamma 100%', 'back\\slash']],
        ['lt', cond('pages', 'lt', 100), ['Delta_x', INJECTION]],
        ['lte', cond('pages', 'lte', 100), ['Alpha', 'Delta_x', INJECTION]],
        ['in', cond('pages', 'in', [50, 300, 999]), ['Delta_x', 'Gamma 100%']],
        ['in with an empty list', cond('pages', 'in', []), []],
        ['notIn', cond('pages', 'notIn', [1, 50, 100, 120]), ['Beta', 'Gamma 100%']],
        ['notIn with an empty list', cond('pages', 'notIn', []), LIVE_TITLES],
        ['between (inclusive)', cond('pages', 'between', [100, 200]), ['Alpha', 'Beta', 'back\\slash']],
        ['like with wildcards', cond('title', 'like', 'G_mma%'), ['Gamma 100%']],
        ['ilike', cond('title', 'ilike', 'ALPH%'), ['Alpha']],
        ['isNull', cond('isbn', 'isNull'), ['Beta', 'Delta_x', 'back\\slash', INJECTION]],
        ['isNotNull', cond('isbn', 'isNotNull'), ['Alpha', 'Gamma 100%']],
        ['contains, case-insensitive', cond('title', 'contains', 'AMM'), ['Gamma 100%']],
        ['startsWith, case-insensitive', cond('title', 'startsWith', 'del'), ['Delta_x']],
        ['endsWith, case-insensitive', cond('title', 'endsWith', 'ETA'), ['Beta']],
        ['contains a literal %', cond('title', 'contains', '%'), ['Gamma 100%']],
        ['contains a literal _', cond('title', 'contains', '_'), ['Delta_x']],
        ['contains a literal backslash', cond('title', 'contains', '\\'), ['back\\slash']],
        ['startsWith a literal backslash pattern', cond('title', 'startsWith', 'back\\s'), ['back\\slash']],
        ['endsWith a literal %', cond('title', 'endsWith', '0%'), ['Gamma 100%']],
        ['like with a literal backslash', cond('title', 'like', 'back\\%'), ['back\\slash']],
        ['like ending in a backslash', cond('title', 'like', 'back\\'), []],
        ['like that is a lone backslash', cond('title', 'like', '\\'), []],
        ['ilike ending in a backslash', cond('title', 'ilike', 'x\\'), []],
      ];

      it.each(cases)('%s', async (_name, where, expected) => {
        expect(titlesOf((await find(where)).rows)).toEqual([...expected].sort());
      });
    });

    describe('with groups', () => {
      it('ORs children', async () => {
        const where: FilterNode = { kind: 'or', children: [cond('pages', 'eq', 100), cond('pages', 'eq', 200)] };
        expect(titlesOf((await find(where)).rows)).toEqual(['Alpha', 'Beta']);
      });

      it('ANDs children', async () => {
        const where: FilterNode = { kind: 'and', children: [cond('published', 'eq', true), cond('pages', 'gt', 100)] };
        expect(titlesOf((await find(where)).rows)).toEqual(['Gamma 100%', 'back\\slash']);
      });

      it('negates with not, and nests groups', async () => {
        const where: FilterNode = {
          kind: 'not',
          child: {
            kind: 'or',
            children: [cond('pages', 'lt', 100), { kind: 'and', children: [cond('published', 'eq', true)] }],
          },
        };
        expect(titlesOf((await find(where)).rows)).toEqual(['Beta']);
      });

      it('treats an empty and as true and an empty or as false', async () => {
        expect((await find({ kind: 'and', children: [] })).rows).toHaveLength(LIVE_TITLES.length);
        expect((await find({ kind: 'or', children: [] })).rows).toHaveLength(0);
      });
    });

    describe('with sort, limit and offset', () => {
      it('sorts descending', async () => {
        const { rows } = await books.findMany({
          sort: [{ field: 'pages', direction: 'desc' }],
          count: false,
          view: 'live',
        });
        expect(rows.map((row) => row['pages'])).toEqual([300, 200, 120, 100, 50, 1]);
      });

      it('sorts by several keys in order', async () => {
        const { rows } = await books.findMany({
          sort: [
            { field: 'published', direction: 'asc' },
            { field: 'pages', direction: 'desc' },
          ],
          count: false,
          view: 'live',
        });
        expect(rows.map((row) => row['title'])).toEqual([
          'Beta',
          'Delta_x',
          INJECTION,
          'Gamma 100%',
          'back\\slash',
          'Alpha',
        ]);
      });

      it('pages with limit and offset, counting the whole match set', async () => {
        const result = await books.findMany({
          sort: [{ field: 'pages', direction: 'asc' }],
          limit: 2,
          offset: 1,
          count: true,
          view: 'live',
        });
        expect(result.rows.map((row) => row['pages'])).toEqual([50, 100]);
        expect(result.total).toBe(LIVE_TITLES.length);
      });

      describe('the total a counted page carries', () => {
        // `pages` leads no index (the total is read beside the scan of every match where the database can), `id` is
        // the primary key (the total is a count of its own).
        for (const field of ['pages', 'id']) {
          it(`is the whole match set under a sort by ${field}, filtered`, async () => {
            const result = await books.findMany({
              where: cond('published', 'eq', true),
              sort: [{ field, direction: 'desc' }],
              limit: 1,
              count: true,
              view: 'live',
            });
            expect(result.rows).toHaveLength(1);
            expect(result.total).toBe(3);
          });

          it(`is still counted for a page past the last row, sorted by ${field}`, async () => {
            const result = await books.findMany({
              sort: [{ field, direction: 'asc' }],
              limit: 2,
              offset: 100,
              count: true,
              view: 'live',
            });
            expect(result.rows).toEqual([]);
            expect(result.total).toBe(LIVE_TITLES.length);
          });

          it(`is 0 when nothing matches, sorted by ${field}`, async () => {
            const result = await books.findMany({
              where: cond('title', 'eq', 'no such title'),
              sort: [{ field, direction: 'asc' }],
              limit: 2,
              count: true,
              view: 'live',
            });
            expect(result).toMatchObject({ rows: [], total: 0 });
          });
        }
      });

      it('takes an offset without a limit', async () => {
        const { rows } = await books.findMany({
          sort: [{ field: 'pages', direction: 'asc' }],
          offset: 4,
          count: false,
          view: 'live',
        });
        expect(rows.map((row) => row['pages'])).toEqual([200, 300]);
      });

      it('counts with the filter applied', async () => {
        const result = await books.findMany({
          where: cond('published', 'eq', true),
          sort: [],
          limit: 1,
          count: true,
          view: 'live',
        });
        expect(result.rows).toHaveLength(1);
        expect(result.total).toBe(3);
      });

      it('returns a null total when count is false', async () => {
        expect((await books.findMany({ sort: [], count: false, view: 'live' })).total).toBeNull();
      });
    });

    describe('for keyset pages', () => {
      it('sorts a null as larger than any value: last ascending, first descending', async () => {
        for (const direction of ['asc', 'desc'] as const) {
          const { rows } = await books.findMany({
            sort: [
              { field: 'rating', direction },
              { field: 'id', direction: 'asc' },
            ],
            count: false,
            view: 'live',
          });
          const ratings = rows.map((row) => row['rating']);
          const nulls = ratings.filter((rating) => rating === null).length;
          expect(nulls).toBe(1);
          expect(direction === 'asc' ? ratings[ratings.length - 1] : ratings[0]).toBeNull();
        }
      });

      it('reports date-times in the database spelling, which a condition compares exactly', async () => {
        const { rows, exact } = await books.findMany({
          sort: [{ field: 'id', direction: 'asc' }],
          count: false,
          view: 'live',
          exactKeys: ['updatedAt'],
        });
        expect(exact).toHaveLength(rows.length);
        const spelling = exact![2]!['updatedAt']!;
        expect(spelling).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
        const same = await books.findMany({
          where: {
            kind: 'and',
            children: [cond('updatedAt', 'eq', { databaseSpelling: spelling }), cond('id', 'eq', rows[2]!['id'])],
          },
          sort: [],
          count: false,
          view: 'live',
        });
        expect(same.rows.map((row) => row['id'])).toEqual([rows[2]!['id']]);
        const after = await books.findMany({
          where: cond('updatedAt', 'gt', { databaseSpelling: spelling }),
          sort: [],
          count: false,
          view: 'live',
        });
        expect(after.rows.map((row) => row['id'])).not.toContain(rows[2]!['id']);
      });
    });

    describe('with soft-delete views', () => {
      it('live hides soft-deleted rows', async () => {
        expect(titlesOf((await books.findMany({ sort: [], count: false, view: 'live' })).rows)).not.toContain('Gone');
      });

      it('deleted shows only soft-deleted rows', async () => {
        const { rows } = await books.findMany({ sort: [], count: true, view: 'deleted' });
        expect(titlesOf(rows)).toEqual(['Gone']);
        expect(rows[0]?.['deletedAt']).toBeInstanceOf(Date);
      });

      it('all shows both', async () => {
        const result = await books.findMany({ sort: [], count: true, view: 'all' });
        expect(titlesOf(result.rows)).toEqual([...LIVE_TITLES, 'Gone'].sort());
        expect(result.total).toBe(LIVE_TITLES.length + 1);
      });

      it('is ignored on an entity without a marker', async () => {
        expect((await authors.findMany({ sort: [], count: true, view: 'deleted' })).total).toBe(3);
      });
    });

    describe('with hostile values', () => {
      it('binds values as parameters, matching SQL text literally', async () => {
        expect(titlesOf((await find(cond('title', 'eq', INJECTION))).rows)).toEqual([INJECTION]);
        expect(titlesOf((await find(cond('title', 'contains', "'; DROP"))).rows)).toEqual([INJECTION]);
        expect((await books.findMany({ sort: [], count: true, view: 'all' })).total).toBe(LIVE_TITLES.length + 1);
      });

      it('follows a relation path through a subquery, binding the value', async () => {
        const rows = (await find(cond('author.name', 'eq', 'Ann'))).rows;
        expect(rows.map((row) => row['title']).sort()).toEqual(['Alpha', 'Beta']);
        expect((await find(cond('author.name', 'eq', "Ann' OR '1'='1"))).rows).toEqual([]);
      });
    });
  });

  describe('findOne', () => {
    it('finds a row by key', async () => {
      const row = await books.findOne({ key: { id: bookIds['Beta'] }, view: 'live' });
      expect(row).toMatchObject({ id: bookIds['Beta'], title: 'Beta', rating: null, published: false });
    });

    it('returns null when the row misses the extra condition', async () => {
      expect(
        await books.findOne({ key: { id: bookIds['Beta'] }, where: cond('pages', 'gt', 500), view: 'live' }),
      ).toBeNull();
      expect(
        await books.findOne({ key: { id: bookIds['Beta'] }, where: cond('pages', 'eq', 200), view: 'live' }),
      ).not.toBeNull();
    });

    it('honours the view for soft-deleted rows', async () => {
      const key = { id: bookIds['Gone'] };
      expect(await books.findOne({ key, view: 'live' })).toBeNull();
      expect(await books.findOne({ key, view: 'all' })).toMatchObject({ title: 'Gone' });
      expect(await books.findOne({ key, view: 'deleted' })).toMatchObject({ title: 'Gone' });
      expect(await books.findOne({ key: { id: bookIds['Beta'] }, view: 'deleted' })).toBeNull();
    });

    it('returns null for a missing key', async () => {
      expect(await books.findOne({ key: { id: 987654 }, view: 'all' })).toBeNull();
    });

    it('locks the row inside a transaction', async () => {
      const row = await books.transaction((session) =>
        books.findOne({ key: { id: bookIds['Alpha'] }, view: 'live', lock: true, session }),
      );
      expect(row).toMatchObject({ title: 'Alpha' });
    });
  });

  describe('loadRelation with keysOnly', () => {
    it('answers the keys from the foreign keys, and null for a target outside where or the view', async () => {
      const parents = [
        { id: bookIds['Alpha'], authorId: authorIds['Ann'] },
        { id: bookIds['Gamma 100%'], authorId: authorIds['Bob'] },
        { id: bookIds['Delta_x'], authorId: null },
      ];
      const load = (args: { where?: FilterNode; view: 'all' | 'live' }) =>
        books.loadRelation!({ relation: 'author', parents, keysOnly: true, ...args });
      expect(await load({ view: 'all' })).toEqual([{ id: authorIds['Ann'] }, { id: authorIds['Bob'] }, null]);
      expect(await load({ view: 'all', where: cond('country', 'eq', 'UK') })).toEqual([
        { id: authorIds['Ann'] },
        null,
        null,
      ]);
      // A soft-deleted target is no key under the live view, and its key under `all`.
      const review = await dataSource.getRepository(Review).save({ rating: 1, book: { id: bookIds['Gone'] } as Book });
      try {
        const reviewed = [{ id: review.id, bookId: bookIds['Gone'] }];
        const byView = (view: 'all' | 'live') =>
          reviews.loadRelation!({ relation: 'book', parents: reviewed, keysOnly: true, view });
        expect(await byView('live')).toEqual([null]);
        expect(await byView('all')).toEqual([{ id: bookIds['Gone'] }]);
      } finally {
        await dataSource.getRepository(Review).delete(review.id);
      }
    });
  });

  describe('aggregate', () => {
    type Shape = Partial<AggregateArgs>;
    const over = (adapter: RepositoryAdapter, args: Shape) =>
      adapter.aggregate({ view: 'live', groupBy: [], measures: [], sort: [], count: false, ...args });
    const aggregate = (args: Shape) => over(books, args);
    const keysOf = (groups: readonly AggregateGroup[], field: string) => groups.map((group) => group.key[field]);
    const PAGES = [
      { fn: 'sum', field: 'pages' },
      { fn: 'avg', field: 'pages' },
      { fn: 'min', field: 'pages' },
      { fn: 'max', field: 'pages' },
      { fn: 'countDistinct', field: 'authorId' },
    ] as const;

    /** A table's name as SQL, schema-qualified where the database has one. */
    const tableSql = (entity: Function) =>
      dataSource
        .getMetadata(entity)
        .tablePath.split('.')
        .map((part) => dataSource.driver.escape(part))
        .join('.');
    const q = (name: string) => dataSource.driver.escape(name);

    /** The SQL statements `work` sends (transaction control left out). */
    async function sentBy(work: () => Promise<unknown>): Promise<string[]> {
      const sql: string[] = [];
      const logger = dataSource.logger;
      const logQuery = logger.logQuery.bind(logger);
      const spy = jest.spyOn(logger, 'logQuery').mockImplementation((query, parameters, runner) => {
        if (!/^\s*(BEGIN|COMMIT|ROLLBACK|START TRANSACTION|SET TRANSACTION)\b/i.test(query)) sql.push(query);
        return logQuery(query, parameters, runner);
      });
      try {
        await work();
        return sql;
      } finally {
        spy.mockRestore();
      }
    }

    describe('without groupBy', () => {
      it('answers one group over every live row', async () => {
        const result = await aggregate({
          measures: [...PAGES, { fn: 'sum', field: 'rating' }, { fn: 'avg', field: 'rating' }],
          count: true,
        });
        expect(result).toEqual({
          groups: [
            {
              key: {},
              count: 6,
              values: {
                'sum.pages': 771,
                'avg.pages': 771 / 6,
                'min.pages': 1,
                'max.pages': 300,
                'countDistinct.authorId': 2,
                'sum.rating': 15.5,
                'avg.rating': expect.closeTo(3.1, 9),
              },
            },
          ],
          total: 1,
        });
      });

      it('answers one group with a count of 0 and null measures when nothing matches', async () => {
        const result = await aggregate({ where: cond('title', 'eq', 'no such title'), measures: PAGES, count: true });
        expect(result).toEqual({
          groups: [
            {
              key: {},
              count: 0,
              values: {
                'sum.pages': null,
                'avg.pages': null,
                'min.pages': null,
                'max.pages': null,
                'countDistinct.authorId': 0,
              },
            },
          ],
          total: 1,
        });
      });

      it('reads soft-deleted rows only in the view that shows them', async () => {
        const count = async (view: 'live' | 'all' | 'deleted') =>
          (await aggregate({ view, measures: [{ fn: 'sum', field: 'pages' }] })).groups[0];
        expect(await count('live')).toMatchObject({ count: 6, values: { 'sum.pages': 771 } });
        expect(await count('all')).toMatchObject({ count: 7, values: { 'sum.pages': 781 } });
        expect(await count('deleted')).toMatchObject({ count: 1, values: { 'sum.pages': 10 } });
      });

      it('sends one statement, counted or not, and a null total when not counted', async () => {
        let result: unknown;
        const sql = await sentBy(async () => (result = await aggregate({ count: true })));
        expect(sql).toHaveLength(1);
        expect(result).toMatchObject({ total: 1 });
        expect((await aggregate({})).total).toBeNull();
      });
    });

    describe('grouped by an own column', () => {
      it('computes count, sum, avg, min, max and countDistinct per group, as hand-written SQL does', async () => {
        const result = await aggregate({ groupBy: [{ field: 'published' }], measures: PAGES, count: true });
        expect(result.total).toBe(2);
        expect(result.groups).toEqual([
          {
            key: { published: false },
            count: 3,
            values: {
              'sum.pages': 251,
              'avg.pages': 251 / 3,
              'min.pages': 1,
              'max.pages': 200,
              'countDistinct.authorId': 1,
            },
          },
          {
            key: { published: true },
            count: 3,
            values: {
              'sum.pages': 520,
              'avg.pages': 520 / 3,
              'min.pages': 100,
              'max.pages': 300,
              'countDistinct.authorId': 2,
            },
          },
        ]);
        const hand = (await dataSource.query(
          `SELECT ${q('published')} AS p, COUNT(*) AS c, SUM(${q('pages')}) AS s, AVG(${q('pages')}) AS a, ` +
            `MIN(${q('pages')}) AS mn, MAX(${q('pages')}) AS mx, COUNT(DISTINCT ${q('authorId')}) AS d ` +
            `FROM ${tableSql(Book)} WHERE ${q('deletedAt')} IS NULL GROUP BY ${q('published')} ORDER BY 1`,
        )) as Record<string, unknown>[];
        // MySQL's own AVG keeps 4 digits past the column's scale; the adapter's is the closest double.
        expect(
          result.groups.map((group) => [
            group.count,
            group.values['sum.pages'],
            group.values['avg.pages'],
            group.values['min.pages'],
            group.values['max.pages'],
            group.values['countDistinct.authorId'],
          ]),
        ).toEqual(
          hand.map((row) =>
            ['c', 's', 'a', 'mn', 'mx', 'd'].map((alias) =>
              alias === 'a' ? expect.closeTo(Number(row[alias]), 4) : Number(row[alias]),
            ),
          ),
        );
      });

      it('forms a group of the rows whose key is null, sorted last ascending and first descending', async () => {
        const byRating = (direction: 'asc' | 'desc') =>
          aggregate({
            groupBy: [{ field: 'rating' }],
            measures: [{ fn: 'avg', field: 'rating' }],
            sort: [{ by: { kind: 'group', field: 'rating' }, direction }],
            count: true,
          });
        const ascending = await byRating('asc');
        expect(keysOf(ascending.groups, 'rating')).toEqual([1, 2, 3, 4.5, 5, null]);
        expect(ascending.groups[5]).toEqual({ key: { rating: null }, count: 1, values: { 'avg.rating': null } });
        expect(ascending.total).toBe(6);
        expect(keysOf((await byRating('desc')).groups, 'rating')).toEqual([null, 5, 4.5, 3, 2, 1]);
      });

      it('applies the where filter before grouping', async () => {
        const result = await aggregate({
          where: cond('pages', 'gt', 100),
          groupBy: [{ field: 'published' }],
          measures: [{ fn: 'sum', field: 'pages' }],
          count: true,
        });
        expect(result).toEqual({
          groups: [
            { key: { published: false }, count: 1, values: { 'sum.pages': 200 } },
            { key: { published: true }, count: 2, values: { 'sum.pages': 420 } },
          ],
          total: 2,
        });
      });

      it('groups soft-deleted rows only in the view that shows them', async () => {
        const falseGroup = async (view: 'live' | 'all') =>
          (await aggregate({ view, groupBy: [{ field: 'published' }] })).groups[0];
        expect(await falseGroup('live')).toMatchObject({ key: { published: false }, count: 3 });
        expect(await falseGroup('all')).toMatchObject({ key: { published: false }, count: 4 });
      });

      it('groups by several keys, each key ascending as the tie-break', async () => {
        const { groups } = await aggregate({ groupBy: [{ field: 'published' }, { field: 'authorId' }] });
        expect(groups.map((group) => [group.key['published'], group.key['authorId'], group.count])).toEqual([
          [false, authorIds['Ann'], 1],
          [false, null, 2],
          [true, authorIds['Ann'], 1],
          [true, authorIds['Bob'], 1],
          [true, null, 1],
        ]);
      });
    });

    describe('grouped by a to-one relation path', () => {
      it("groups by the related row's column, rows without one under null", async () => {
        const result = await aggregate({
          groupBy: [{ field: 'author.name' }],
          measures: [{ fn: 'sum', field: 'pages' }],
          count: true,
        });
        expect(result).toEqual({
          groups: [
            { key: { 'author.name': 'Ann' }, count: 2, values: { 'sum.pages': 300 } },
            { key: { 'author.name': 'Bob' }, count: 1, values: { 'sum.pages': 300 } },
            { key: { 'author.name': null }, count: 3, values: { 'sum.pages': 171 } },
          ],
          total: 3,
        });
      });

      it('groups a row whose related row is outside the scope under null', async () => {
        const result = await aggregate({
          groupBy: [{ field: 'author.name', scope: cond('country', 'eq', 'UK') }],
          count: true,
        });
        expect(result.groups).toEqual([
          { key: { 'author.name': 'Ann' }, count: 2, values: {} },
          { key: { 'author.name': null }, count: 4, values: {} },
        ]);
        expect(result.total).toBe(2);
      });

      it('groups a row whose related row is soft-deleted under null', async () => {
        const repository = dataSource.getRepository(Review);
        const saved = await repository.save([
          { rating: 4, book: { id: bookIds['Alpha'] } as Book },
          { rating: 2, book: { id: bookIds['Alpha'] } as Book },
          { rating: 5, book: { id: bookIds['Gone'] } as Book },
        ]);
        try {
          const result = await over(reviews, {
            groupBy: [{ field: 'book.title' }, { field: 'book.published' }],
            measures: [{ fn: 'avg', field: 'rating' }],
            count: true,
          });
          expect(result).toEqual({
            groups: [
              { key: { 'book.title': 'Alpha', 'book.published': true }, count: 2, values: { 'avg.rating': 3 } },
              { key: { 'book.title': null, 'book.published': null }, count: 1, values: { 'avg.rating': 5 } },
            ],
            total: 2,
          });
        } finally {
          await repository.delete(saved.map((review) => review.id));
        }
      });

      it('sorts the null group of a path first descending', async () => {
        const { groups } = await aggregate({
          groupBy: [{ field: 'author.name' }],
          sort: [{ by: { kind: 'group', field: 'author.name' }, direction: 'desc' }],
        });
        expect(keysOf(groups, 'author.name')).toEqual([null, 'Bob', 'Ann']);
      });
    });

    describe('sorted and paged', () => {
      it('sorts by the count, descending', async () => {
        const { groups } = await aggregate({
          groupBy: [{ field: 'author.name' }],
          sort: [{ by: { kind: 'count' }, direction: 'desc' }],
        });
        expect(groups.map((group) => [group.key['author.name'], group.count])).toEqual([
          [null, 3],
          ['Ann', 2],
          ['Bob', 1],
        ]);
      });

      it('sorts by a measure, then by the keys ascending on ties', async () => {
        const sorted = async (direction: 'asc' | 'desc') =>
          (
            await aggregate({
              groupBy: [{ field: 'author.name' }],
              measures: [{ fn: 'sum', field: 'pages' }],
              sort: [{ by: { kind: 'measure', fn: 'sum', field: 'pages' }, direction }],
            })
          ).groups.map((group) => [group.key['author.name'], group.values['sum.pages']]);
        // Ann and Bob tie at 300: Ann first either way.
        expect(await sorted('asc')).toEqual([
          [null, 171],
          ['Ann', 300],
          ['Bob', 300],
        ]);
        expect(await sorted('desc')).toEqual([
          ['Ann', 300],
          ['Bob', 300],
          [null, 171],
        ]);
      });

      it('sorts a null measure as larger than any value', async () => {
        const sorted = async (direction: 'asc' | 'desc') =>
          (
            await aggregate({
              groupBy: [{ field: 'rating' }],
              measures: [{ fn: 'max', field: 'rating' }],
              sort: [{ by: { kind: 'measure', fn: 'max', field: 'rating' }, direction }],
            })
          ).groups.map((group) => group.values['max.rating']);
        expect(await sorted('asc')).toEqual([1, 2, 3, 4.5, 5, null]);
        expect(await sorted('desc')).toEqual([null, 5, 4.5, 3, 2, 1]);
      });

      it('pages over groups with limit and offset, counting every group', async () => {
        const page = await aggregate({ groupBy: [{ field: 'rating' }], limit: 2, offset: 2, count: true });
        expect(keysOf(page.groups, 'rating')).toEqual([3, 4.5]);
        expect(page.total).toBe(6);
        const rest = await aggregate({ groupBy: [{ field: 'rating' }], offset: 4, count: true });
        expect(keysOf(rest.groups, 'rating')).toEqual([5, null]);
        expect(rest.total).toBe(6);
        const past = await aggregate({ groupBy: [{ field: 'rating' }], limit: 2, offset: 10, count: true });
        expect(past).toEqual({ groups: [], total: 6 });
      });

      it('counts groups in the page statement, apart only past the last group, on the session in a transaction', async () => {
        const args: Shape = { groupBy: [{ field: 'published' }], limit: 1, count: true };
        // A full page: its window carries the count (MySQL/MariaDB, which count apart, send a second statement).
        expect(await sentBy(() => aggregate(args))).toHaveLength(db.name === 'mysql' ? 2 : 1);
        expect(await sentBy(() => aggregate({ ...args, count: false }))).toHaveLength(1);
        // A short page tells the count everywhere; a page past the last group counts apart everywhere.
        const short = await sentBy(() => aggregate({ ...args, limit: 5 }));
        expect(short).toHaveLength(1);
        expect(await aggregate({ ...args, limit: 5 })).toMatchObject({ total: 2 });
        expect(await aggregate({ ...args, limit: 5, offset: 1 })).toMatchObject({ total: 2 });
        expect(await sentBy(() => aggregate({ ...args, offset: 5 }))).toHaveLength(2);
        const inside = await books.transaction((session) => aggregate({ ...args, session }));
        expect(inside).toEqual({ groups: [{ key: { published: false }, count: 3, values: {} }], total: 2 });
      });
    });

    if (db.name === 'mysql') {
      it('runs under ONLY_FULL_GROUP_BY, grouping by what it selects', async () => {
        const result = await books.transaction(async (session) => {
          const { manager } = session as TypeOrmSession;
          await manager.query("SET SESSION sql_mode = CONCAT(@@SESSION.sql_mode, ',ONLY_FULL_GROUP_BY')");
          try {
            return await aggregate({
              session,
              groupBy: [{ field: 'published' }, { field: 'author.name', scope: cond('country', 'eq', 'UK') }],
              measures: [...PAGES, { fn: 'max', field: 'title' }],
              sort: [
                { by: { kind: 'measure', fn: 'avg', field: 'pages' }, direction: 'desc' },
                { by: { kind: 'group', field: 'author.name' }, direction: 'desc' },
              ],
              limit: 2,
              count: true,
            });
          } finally {
            await manager.query("SET SESSION sql_mode = REPLACE(@@SESSION.sql_mode, 'ONLY_FULL_GROUP_BY', '')");
          }
        });
        expect(result.total).toBe(4);
        expect(result.groups.map((group) => [group.key['published'], group.key['author.name'], group.count])).toEqual([
          [true, null, 2],
          [false, 'Ann', 1],
        ]);
      });
    }

    describe('values', () => {
      beforeAll(async () => {
        await dataSource.getRepository(Tally).save([
          { bucket: 'a', amount: '0.10', big: '9007199254740991', stamp: new Date('2024-01-02T03:04:05Z') },
          { bucket: 'a', amount: '0.20', big: '10', stamp: new Date('2025-06-07T08:09:10Z') },
          { bucket: 'b', amount: '-0.05', big: null, stamp: null },
          { bucket: 'b', amount: null, big: '-7', stamp: new Date('2023-01-01T00:00:00Z') },
        ]);
      });

      it('sums decimals exactly as decimal text, and bigints past 2^53 as integer text', async () => {
        const result = await over(tallies, {
          groupBy: [{ field: 'bucket' }],
          measures: [
            { fn: 'sum', field: 'amount' },
            { fn: 'sum', field: 'big' },
          ],
        });
        expect(result.groups).toEqual([
          { key: { bucket: 'a' }, count: 2, values: { 'sum.amount': '0.30', 'sum.big': '9007199254741001' } },
          { key: { bucket: 'b' }, count: 2, values: { 'sum.amount': '-0.05', 'sum.big': '-7' } },
        ]);
        const [total] = (await over(tallies, { measures: [{ fn: 'sum', field: 'amount' }] })).groups;
        expect(total?.values).toEqual({ 'sum.amount': '0.25' });
      });

      it('answers min, max and key values as rows hold them, and averages as numbers', async () => {
        const { rows } = await tallies.findMany({
          sort: [{ field: 'id', direction: 'asc' }],
          count: false,
          view: 'all',
        });
        const [first, second, third, fourth] = rows;
        const { groups } = await over(tallies, {
          groupBy: [{ field: 'bucket' }],
          measures: [
            { fn: 'min', field: 'amount' },
            { fn: 'max', field: 'amount' },
            { fn: 'min', field: 'big' },
            { fn: 'max', field: 'stamp' },
            { fn: 'avg', field: 'amount' },
            { fn: 'avg', field: 'big' },
          ],
        });
        expect(groups[0]?.values).toEqual({
          'min.amount': first!['amount'],
          'max.amount': second!['amount'],
          'min.big': second!['big'],
          'max.stamp': second!['stamp'],
          'avg.amount': expect.closeTo(0.15, 9),
          'avg.big': expect.closeTo((2 ** 53 + 9) / 2, -1),
        });
        expect(groups[1]?.values).toMatchObject({
          'min.amount': third!['amount'],
          'max.amount': third!['amount'],
          'min.big': fourth!['big'],
          'max.stamp': fourth!['stamp'],
          'avg.amount': -0.05,
          'avg.big': -7,
        });
        expect(second!['stamp']).toBeInstanceOf(Date);
        const byStamp = await over(tallies, {
          groupBy: [{ field: 'stamp' }],
          sort: [{ by: { kind: 'group', field: 'stamp' }, direction: 'desc' }],
        });
        expect(keysOf(byStamp.groups, 'stamp')).toEqual([null, second!['stamp'], first!['stamp'], fourth!['stamp']]);
      });

      it('answers integer sums as numbers and counts as numbers', async () => {
        const [group] = (
          await aggregate({
            measures: [
              { fn: 'sum', field: 'pages' },
              { fn: 'countDistinct', field: 'published' },
            ],
          })
        ).groups;
        expect(typeof group?.count).toBe('number');
        expect(group?.values).toEqual({ 'sum.pages': 771, 'countDistinct.published': 2 });
      });
    });

    describe('with hostile values', () => {
      it('binds filter and scope values as parameters', async () => {
        const [match] = (await aggregate({ where: cond('title', 'eq', INJECTION), measures: PAGES })).groups;
        expect(match).toMatchObject({ count: 1, values: { 'sum.pages': 1 } });
        const grouped = await aggregate({
          where: cond('title', 'contains', "'; DROP"),
          groupBy: [{ field: 'published' }],
        });
        expect(grouped.groups).toEqual([{ key: { published: false }, count: 1, values: {} }]);
        const none = await aggregate({ where: cond('author.name', 'eq', "Ann' OR '1'='1") });
        expect(none.groups[0]?.count).toBe(0);
        const scoped = await aggregate({
          groupBy: [{ field: 'author.name', scope: cond('country', 'eq', "UK' OR '1'='1") }],
        });
        expect(scoped.groups).toEqual([{ key: { 'author.name': null }, count: 6, values: {} }]);
        expect((await aggregate({ view: 'all' })).groups[0]?.count).toBe(LIVE_TITLES.length + 1);
      });

      it('refuses a field that is no column with a plain error, sending nothing', async () => {
        const sql = await sentBy(async () => {
          await expect(aggregate({ groupBy: [{ field: 'title"; DROP TABLE book; --' }] })).rejects.toThrow(
            /is not a column of Book/,
          );
          await expect(aggregate({ measures: [{ fn: 'sum', field: 'nope' }] })).rejects.toThrow(/is not a column/);
          await expect(aggregate({ groupBy: [{ field: 'author.nope' }] })).rejects.toThrow(/is not a column of Author/);
          await expect(aggregate({ groupBy: [{ field: 'tags.name' }] })).rejects.toThrow(/owning to-one/);
        });
        expect(sql).toEqual([]);
      });
    });
  });

  describe('insert', () => {
    it('writes a to-one relation given as an object', async () => {
      const { key } = await write((session) =>
        books.insert({ title: 'By object', author: { id: authorIds['Bob'] } }, { session }),
      );
      expect(key).toEqual({ id: expect.any(Number) });
      const row = await books.findOne({ key, view: 'live' });
      expect(row).toMatchObject({ title: 'By object', authorId: authorIds['Bob'], pages: 0, published: false });
    });

    it('writes a to-one relation given as its mapped foreign-key property', async () => {
      const { key } = await write((session) =>
        books.insert({ title: 'By FK', authorId: authorIds['Cid'] }, { session }),
      );
      expect(await books.findOne({ key, view: 'live' })).toMatchObject({ authorId: authorIds['Cid'] });
    });

    it('writes a relation whose foreign key is not mapped', async () => {
      const { key } = await write((session) =>
        reviews.insert({ rating: 4, body: 'fine', book: { id: bookIds['Alpha'] } }, { session }),
      );
      expect(await reviews.findOne({ key, view: 'live' })).toEqual({ id: key['id'], rating: 4, body: 'fine' });
    });

    it('returns a composite key', async () => {
      const { key } = await write((session) => editions.insert({ bookId: bookIds['Alpha'], code: 'HC' }, { session }));
      expect(key).toEqual({ bookId: bookIds['Alpha'], code: 'HC' });
      expect(await editions.findOne({ key, view: 'live' })).toEqual({
        bookId: bookIds['Alpha'],
        code: 'HC',
        printRun: 1,
      });
    });

    it('returns a generated uuid key, with enum defaults and json values stored', async () => {
      const { key } = await write((session) =>
        notes.insert({ text: 'n', data: { a: [1, 'b'] }, due: '2026-01-02' }, { session }),
      );
      expect(key['id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(await notes.findOne({ key, view: 'live' })).toEqual({
        id: key['id'],
        text: 'n',
        priority: 'normal',
        data: { a: [1, 'b'] },
        due: '2026-01-02',
      });
    });

    // Every database this suite runs on returns inserted rows (PostgreSQL, SQLite 3.35+, MariaDB 10.5+).
    it('returns the stored row exactly as findOne reads it (RETURNING), in one statement', async () => {
      expect(books.returnsInsertedRows || books.returnsWrittenRows).toBe(true);
      const { sql, result } = await statementsOf(() =>
        write((session) => books.insert({ title: 'Returned', rating: 1.5, authorId: authorIds['Ann'] }, { session })),
      );
      expect(sql).toHaveLength(1);
      expect(sql[0]).toMatch(/RETURNING/i);
      expect(result.row).toBeDefined();
      expect(result.row).toEqual(await books.findOne({ key: result.key, view: 'all' }));
    });

    it(`${db.name === 'mysql' ? 'does not return' : 'returns'} the updated row (UPDATE ... RETURNING)`, async () => {
      const { key } = await write((session) => books.insert({ title: 'To update', pages: 1 }, { session }));
      const updated = await write((session) => books.update(key, { pages: 2 }, { session }));
      if (db.name === 'mysql') expect(updated).toBeUndefined();
      else expect(updated).toEqual(await books.findOne({ key, view: 'all' }));
    });
  });

  describe('update', () => {
    it('changes only the given columns', async () => {
      const { key } = await write((session) =>
        books.insert({ title: 'Before', pages: 7, authorId: authorIds['Ann'] }, { session }),
      );
      await write((session) => books.update(key, { title: 'After' }, { session }));
      expect(await books.findOne({ key, view: 'live' })).toMatchObject({
        title: 'After',
        pages: 7,
        authorId: authorIds['Ann'],
      });
    });

    it('writes relations by object and clears them with null', async () => {
      const { key } = await write((session) => books.insert({ title: 'Rel', authorId: authorIds['Ann'] }, { session }));
      await write((session) => books.update(key, { author: { id: authorIds['Bob'] } }, { session }));
      expect(await books.findOne({ key, view: 'live' })).toMatchObject({ authorId: authorIds['Bob'] });
      await write((session) => books.update(key, { author: null }, { session }));
      expect(await books.findOne({ key, view: 'live' })).toMatchObject({ authorId: null });
    });

    it('does nothing with empty values', async () => {
      const before = await books.findOne({ key: { id: bookIds['Alpha'] }, view: 'live' });
      await write((session) => books.update({ id: bookIds['Alpha'] }, {}, { session }));
      expect(await books.findOne({ key: { id: bookIds['Alpha'] }, view: 'live' })).toEqual(before);
    });
  });

  describe('softDelete, restore and remove', () => {
    it('soft-deletes by setting the marker, and restores by clearing it', async () => {
      const { key } = await write((session) => books.insert({ title: 'Transient' }, { session }));
      await write((session) => books.softDelete(key, { session }));
      expect(await books.findOne({ key, view: 'live' })).toBeNull();
      expect((await books.findOne({ key, view: 'deleted' }))?.['deletedAt']).toBeInstanceOf(Date);
      await write((session) => books.restore(key, { session }));
      expect(await books.findOne({ key, view: 'live' })).toMatchObject({ title: 'Transient', deletedAt: null });
    });

    it('removes a row for good', async () => {
      const { key } = await write((session) => books.insert({ title: 'Purged' }, { session }));
      await write((session) => books.remove(key, { session }));
      expect(await books.findOne({ key, view: 'all' })).toBeNull();
    });

    it('removes by composite key', async () => {
      const key = { bookId: bookIds['Beta'], code: 'PB' };
      await write((session) => editions.insert(key, { session }));
      await write((session) => editions.remove(key, { session }));
      expect(await editions.findOne({ key, view: 'all' })).toBeNull();
    });
  });

  describe('transaction', () => {
    it('commits and returns what the work returns', async () => {
      const result = await tags.transaction(async (session) => {
        const { key } = await tags.insert({ name: 'committed' }, { session });
        return tags.findOne({ key, view: 'live', session });
      });
      expect(result).toMatchObject({ name: 'committed' });
      expect(
        (await tags.findMany({ where: cond('name', 'eq', 'committed'), sort: [], count: true, view: 'live' })).total,
      ).toBe(1);
    });

    it('rolls back when the work throws, rethrowing the same error', async () => {
      const failure = new Error('stop');
      await expect(
        tags.transaction(async (session) => {
          await tags.insert({ name: 'rolled back' }, { session });
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(
        (await tags.findMany({ where: cond('name', 'eq', 'rolled back'), sort: [], count: true, view: 'live' })).total,
      ).toBe(0);
    });

    it('runs 20 concurrent transactions, all succeeding', async () => {
      const names = Array.from({ length: 20 }, (_, index) => `parallel-${index}`);
      const results = await Promise.allSettled(
        names.map((name) =>
          tags.transaction(async (session) => {
            const { key } = await tags.insert({ name }, { session });
            await tags.update(key, { name: `${name}!` }, { session });
            return tags.findOne({ key, view: 'live', session });
          }),
        ),
      );
      expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
      const stored = await tags.findMany({
        where: cond('name', 'startsWith', 'parallel-'),
        sort: [],
        count: true,
        view: 'live',
      });
      expect(stored.total).toBe(20);
    });
  });

  describe('driver errors', () => {
    it('maps a unique violation to SVC_CONFLICT naming the column', async () => {
      const attempt = write((session) => books.insert({ title: 'Dup', isbn: 'A-1' }, { session }));
      await expect(attempt).rejects.toMatchObject({ code: 'SVC_CONFLICT', status: 409 });
      await expect(attempt).rejects.toMatchObject({ detail: expect.stringContaining('isbn') });
      await expect(attempt).rejects.toMatchObject({ cause: expect.anything() });
      // The violated set, by property, is what a batch traces back to its items.
      await expect(attempt).rejects.toMatchObject({ unique: ['isbn'] });
    });

    it('maps a duplicate composite key to SVC_CONFLICT', async () => {
      const key = { bookId: bookIds['Gamma 100%'], code: 'DUP' };
      await write((session) => editions.insert(key, { session }));
      await expect(write((session) => editions.insert(key, { session }))).rejects.toMatchObject({
        code: 'SVC_CONFLICT',
        unique: ['bookId', 'code'],
      });
    });

    it('maps a missing foreign-key target on insert to SVC_UNRESOLVED_RELATION', async () => {
      await expect(
        write((session) => books.insert({ title: 'Orphan', authorId: 999999 }, { session })),
      ).rejects.toMatchObject({
        code: 'SVC_UNRESOLVED_RELATION',
        status: 422,
      });
      await expect(
        write((session) => reviews.insert({ rating: 1, book: { id: 999999 } }, { session })),
      ).rejects.toMatchObject({ code: 'SVC_UNRESOLVED_RELATION' });
    });

    it('maps a missing foreign-key target on update to SVC_UNRESOLVED_RELATION', async () => {
      await expect(
        write((session) => books.update({ id: bookIds['Beta'] }, { author: { id: 999999 } }, { session })),
      ).rejects.toMatchObject({ code: 'SVC_UNRESOLVED_RELATION' });
    });

    it('maps removing a still-referenced row to SVC_CONFLICT', async () => {
      const attempt = write((session) => authors.remove({ id: authorIds['Ann'] }, { session }));
      await expect(attempt).rejects.toMatchObject({
        code: 'SVC_CONFLICT',
        detail: expect.stringContaining('still referenced'),
      });
    });

    it('maps a NOT NULL violation to SVC_VALIDATION_FAILED naming the field', async () => {
      const attempt = write((session) => books.insert({ title: null }, { session }));
      await expect(attempt).rejects.toMatchObject({
        code: 'SVC_VALIDATION_FAILED',
        status: 400,
        errors: [expect.objectContaining({ field: 'title' })],
      });
    });

    if (db.name === 'sqlite') {
      it('stores over-long strings (SQLite does not enforce lengths)', async () => {
        const { key } = await write((session) => authors.insert({ name: 'x'.repeat(150) }, { session }));
        expect((await authors.findOne({ key, view: 'live' }))?.['name']).toHaveLength(150);
      });
    } else {
      it('maps a too-long string to SVC_VALIDATION_FAILED', async () => {
        const attempt = write((session) => books.insert({ title: 'x'.repeat(300) }, { session }));
        await expect(attempt).rejects.toMatchObject({
          code: 'SVC_VALIDATION_FAILED',
          errors: [expect.objectContaining({ code: 'too_long' })],
        });
      });

      it('maps a numeric overflow to SVC_VALIDATION_FAILED', async () => {
        const attempt = write((session) => books.insert({ title: 'Huge', pages: 2 ** 40 }, { session }));
        await expect(attempt).rejects.toMatchObject({
          code: 'SVC_VALIDATION_FAILED',
          errors: [expect.objectContaining({ code: 'out_of_range' })],
        });
      });
    }

    if (db.name !== 'sqlite') {
      it('maps a deadlock between two locking transactions to SVC_TRANSACTION_FAILED', async () => {
        const first = { id: bookIds['Alpha'] };
        const second = { id: bookIds['Beta'] };
        let arrived = 0;
        let openGate: () => void = () => undefined;
        const gate = new Promise<void>((resolve) => (openGate = resolve));
        const lockBoth = (a: typeof first, b: typeof first) =>
          books.transaction(async (session) => {
            await books.findOne({ key: a, view: 'live', lock: true, session });
            if (++arrived === 2) openGate();
            await gate;
            await books.findOne({ key: b, view: 'live', lock: true, session });
          });
        const results = await Promise.allSettled([lockBoth(first, second), lockBoth(second, first)]);
        const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
        expect(failures).toHaveLength(1);
        expect(failures[0]).toMatchObject({ code: 'SVC_TRANSACTION_FAILED', status: 503 });
      });
    }

    if (db.name === 'postgres') {
      it('maps an invalid text representation on a read to SVC_VALIDATION_FAILED', async () => {
        await expect(
          notes.findMany({ where: cond('id', 'eq', 'not-a-uuid'), sort: [], count: false, view: 'live' }),
        ).rejects.toMatchObject({ code: 'SVC_VALIDATION_FAILED' });
      });
    }
  });

  describe('set-based writes', () => {
    /** Books whose title starts with `prefix`, soft-deleted ones included, by id. */
    async function booksTitled(prefix: string): Promise<Map<unknown, Row>> {
      const { rows } = await books.findMany({
        where: cond('title', 'startsWith', prefix),
        sort: [{ field: 'id', direction: 'asc' }],
        count: false,
        view: 'all',
      });
      return new Map(rows.map((row) => [row['id'], row]));
    }

    function titled(prefix: string, count: number): Row[] {
      return Array.from({ length: count }, (_, index) => ({ title: `${prefix}-${index}`, pages: index }));
    }

    async function insertBooks(rows: readonly Row[]): Promise<EntityKey[]> {
      return (await write((session) => books.insertMany(rows, { session }))).map((written) => written.key);
    }

    async function removeBooks(keys: readonly EntityKey[]): Promise<void> {
      await write((session) => books.removeMany(keys, { session }));
    }

    describe('insertMany', () => {
      it('returns one key per row in the order given, with the stored row where the adapter returns written rows', async () => {
        const rows = [
          { title: 'im-a', pages: 3, rating: 1.5, authorId: authorIds['Ann'] },
          { title: 'im-b', published: true },
          { title: 'im-c', isbn: 'IM-C' },
        ];
        const { sql, result } = await statementsOf(() => write((session) => books.insertMany(rows, { session })));
        expect(sql).toHaveLength(1);
        expect(result).toHaveLength(3);
        for (const [index, written] of result.entries()) {
          const stored = await books.findOne({ key: written.key, view: 'all' });
          expect(stored).toMatchObject(rows[index]!);
          // Only PostgreSQL promises RETURNING rows in VALUES order; elsewhere ids are counted and no row comes back.
          if (db.name === 'postgres') expect(written.row).toEqual(stored);
          else expect(written.row).toBeUndefined();
        }
        // Rows that set different columns share the statement; what a row leaves out gets the column's default.
        expect(await books.findOne({ key: result[1]!.key, view: 'all' })).toMatchObject({
          pages: 0,
          rating: null,
          isbn: null,
          deletedAt: null,
        });
        await removeBooks(result.map((written) => written.key));
      });

      it('writes 100 rows in one statement', async () => {
        const { sql, result } = await statementsOf(() => insertBooks(titled('hundred', 100)));
        expect(sql).toHaveLength(1);
        const stored = await booksTitled('hundred-');
        expect(result.map((key) => stored.get(key['id'])?.['title'])).toEqual(
          titled('hundred', 100).map((r) => r['title']),
        );
        await removeBooks(result);
      });

      it('writes at most 1,000 rows per statement, keys still in the order given', async () => {
        const rows = titled('bulk', 2_500);
        const { sql, result: keys } = await statementsOf(() => insertBooks(rows));
        expect(sql).toHaveLength(3);
        expect(sql.every((statement) => /^\s*INSERT\b/i.test(statement))).toBe(true);
        const stored = await booksTitled('bulk-');
        expect(stored.size).toBe(rows.length);
        const misplaced = keys.filter((key, index) => stored.get(key['id'])?.['title'] !== `bulk-${index}`);
        expect(misplaced).toEqual([]);
        await removeBooks(keys);
        expect((await booksTitled('bulk-')).size).toBe(0);
      });

      it('splits rows whose values outgrow the bound-parameter limit into statements under it', async () => {
        const rows = Array.from({ length: 1_000 }, (_, row) =>
          Object.fromEntries(WIDE_COLUMNS.map((column) => [column, `${row}:${column}`])),
        );
        const { sql, result } = await statementsOf(() => write((session) => wides.insertMany(rows, { session })));
        expect(sql.length).toBeGreaterThan(1);
        const { rows: stored } = await wides.findMany({ sort: [], count: false, view: 'all' });
        const byId = new Map(stored.map((row) => [row['id'], row]));
        const misplaced = result.filter((written, index) => byId.get(written.key['id'])?.['c169'] !== `${index}:c169`);
        expect(misplaced).toEqual([]);
      });

      it('writes nothing when a row violates a unique constraint inside the transaction', async () => {
        const rows = [...titled('dup', 3), { title: 'dup-clash', isbn: 'A-1' }];
        const attempt = write((session) => books.insertMany(rows, { session }));
        await expect(attempt).rejects.toMatchObject({ code: 'SVC_CONFLICT', detail: expect.stringContaining('isbn') });
        expect((await booksTitled('dup-')).size).toBe(0);
      });

      it('writes nothing of several statements when the last one fails, even without a session', async () => {
        const rows = [...titled('undone', 2_500), { title: 'undone-clash', isbn: 'A-1' }];
        await expect(books.insertMany(rows, {})).rejects.toMatchObject({ code: 'SVC_CONFLICT' });
        expect((await booksTitled('undone-')).size).toBe(0);
      });

      it('returns generated uuid keys in order', async () => {
        const rows = [{ text: 'u1' }, { text: 'u2', priority: 'high' }, { text: 'u3', due: '2026-05-06' }];
        const written = await write((session) => notes.insertMany(rows, { session }));
        const keys = written.map((entry) => entry.key['id']);
        expect(new Set(keys).size).toBe(3);
        for (const [index, entry] of written.entries()) {
          expect(entry.key['id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
          expect(await notes.findOne({ key: entry.key, view: 'all' })).toMatchObject(rows[index]!);
        }
        await write((session) =>
          notes.removeMany(
            written.map((entry) => entry.key),
            { session },
          ),
        );
      });

      it('returns composite keys as given', async () => {
        const rows = [
          { bookId: bookIds['Alpha'], code: 'M1' },
          { bookId: bookIds['Beta'], code: 'M2', printRun: 5 },
        ];
        const written = await write((session) => editions.insertMany(rows, { session }));
        expect(written.map((entry) => entry.key)).toEqual([
          { bookId: bookIds['Alpha'], code: 'M1' },
          { bookId: bookIds['Beta'], code: 'M2' },
        ]);
        expect(await editions.findOne({ key: written[1]!.key, view: 'all' })).toMatchObject({ printRun: 5 });
        await write((session) =>
          editions.removeMany(
            written.map((entry) => entry.key),
            { session },
          ),
        );
      });

      if (db.name !== 'postgres') {
        // PostgreSQL returns the ids it wrote; TypeORM leaves a given id of a generated column out there.
        it('keeps ids counted from the driver right when some rows give their own id', async () => {
          const rows = [{ title: 'own-0' }, { id: 500_000, title: 'own-1' }, { title: 'own-2' }, { title: 'own-3' }];
          const written = await write((session) => books.insertMany(rows, { session }));
          expect(written[1]!.key).toEqual({ id: 500_000 });
          const stored = await booksTitled('own-');
          expect(written.map((entry) => stored.get(entry.key['id'])?.['title'])).toEqual(rows.map((r) => r.title));
          await removeBooks(written.map((entry) => entry.key));
        });
      }

      if (db.name === 'mysql') {
        it('counts ids from the insert id where the server has no INSERT ... RETURNING (MySQL, MariaDB before 10.5)', async () => {
          const spy = jest.spyOn(dataSource.driver, 'isReturningSqlSupported').mockReturnValue(false);
          try {
            const rows = titled('counted', 50);
            const keys = await insertBooks(rows);
            const stored = await booksTitled('counted-');
            expect(keys.map((key) => stored.get(key['id'])?.['title'])).toEqual(rows.map((r) => r['title']));
            await removeBooks(keys);
          } finally {
            spy.mockRestore();
          }
        });
      }
    });

    describe('updateMany', () => {
      it('sets the same values on exactly the keyed rows, binding every value', async () => {
        const keys = await insertBooks(titled('um', 4));
        await write((session) =>
          books.updateMany(keys.slice(0, 3), { title: INJECTION, rating: null, published: true }, { session }),
        );
        const rows = await Promise.all(keys.map((key) => books.findOne({ key, view: 'all' })));
        expect(rows.slice(0, 3).map((row) => row?.['title'])).toEqual([INJECTION, INJECTION, INJECTION]);
        expect(rows.slice(0, 3).every((row) => row?.['published'] === true && row['rating'] === null)).toBe(true);
        expect(rows[3]).toMatchObject({ title: 'um-3', published: false });
        expect(await books.findOne({ key: { id: bookIds['Alpha'] }, view: 'all' })).toMatchObject({ title: 'Alpha' });
        await removeBooks(keys);
      });

      it('addresses 2,500 keys in statements of at most 1,000', async () => {
        const keys = await insertBooks(titled('um2', 2_600));
        const { sql } = await statementsOf(() =>
          write((session) => books.updateMany(keys.slice(0, 2_500), { pages: 4_242 }, { session })),
        );
        expect(sql).toHaveLength(3);
        const stored = [...(await booksTitled('um2-')).values()];
        expect(stored.filter((row) => row['pages'] === 4_242)).toHaveLength(2_500);
        const untouched = new Set(keys.slice(2_500).map((key) => key['id']));
        expect(stored.filter((row) => untouched.has(row['id'])).every((row) => row['pages'] !== 4_242)).toBe(true);
        await removeBooks(keys);
      });

      it('addresses 2,500 composite keys in statements of at most 1,000', async () => {
        const rows = Array.from({ length: 2_500 }, (_, index) => ({ bookId: bookIds['Delta_x'], code: `K${index}` }));
        const keys = (await write((session) => editions.insertMany(rows, { session }))).map((entry) => entry.key);
        const other = { bookId: bookIds['Gamma 100%'], code: 'K0' };
        await write((session) => editions.insert(other, { session }));
        const { sql } = await statementsOf(() =>
          write((session) => editions.updateMany(keys, { printRun: 9 }, { session })),
        );
        expect(sql).toHaveLength(3);
        const { rows: updated } = await editions.findMany({
          where: cond('printRun', 'eq', 9),
          sort: [],
          count: true,
          view: 'all',
        });
        expect(updated).toHaveLength(2_500);
        expect(await editions.findOne({ key: other, view: 'all' })).toMatchObject({ printRun: 1 });
        await write((session) => editions.removeMany([...keys, other], { session }));
        expect(
          await editions.findMany({ where: cond('code', 'startsWith', 'K'), sort: [], count: true, view: 'all' }),
        ).toMatchObject({ total: 0 });
      });
    });

    describe('updateEach', () => {
      it('sets each row its own values; a column a row leaves out keeps its value on that row', async () => {
        const keys = await insertBooks([
          { title: 'ue-0', pages: 10, rating: 1.5, published: false },
          { title: 'ue-1', pages: 11, rating: 2.5, published: true },
          { title: 'ue-2', pages: 12, rating: 3.5, published: false },
          { title: 'ue-3', pages: 13, rating: 4.5, published: true },
        ]);
        const deletedAt = new Date('2025-02-03T04:05:06.000Z');
        await write((session) =>
          books.updateEach(
            [
              { key: keys[0]!, values: { title: 'ue-0 renamed', pages: 100 } },
              { key: keys[1]!, values: { rating: null, published: false } },
              { key: keys[2]!, values: { title: INJECTION, rating: 0.25, published: true, deletedAt } },
            ],
            { session },
          ),
        );
        const rows = await Promise.all(keys.map((key) => books.findOne({ key, view: 'all' })));
        expect(rows[0]).toMatchObject({ title: 'ue-0 renamed', pages: 100, rating: 1.5, published: false });
        expect(rows[1]).toMatchObject({ title: 'ue-1', pages: 11, rating: null, published: false });
        expect(rows[2]).toMatchObject({ title: INJECTION, pages: 12, rating: 0.25, published: true });
        expect((rows[2]!['deletedAt'] as Date).getTime()).toBe(deletedAt.getTime());
        expect(rows[3]).toMatchObject({ title: 'ue-3', pages: 13, rating: 4.5, published: true, deletedAt: null });
        await removeBooks(keys);
      });

      it('binds dates, enums, json and nulls with their column types', async () => {
        const written = await write((session) =>
          notes.insertMany([{ text: 't0', due: '2026-01-01' }, { text: 't1', data: { a: 1 } }, { text: 't2' }], {
            session,
          }),
        );
        const [first, second, third] = written.map((entry) => entry.key);
        await write((session) =>
          notes.updateEach(
            [
              { key: first!, values: { due: '2027-12-31', priority: 'high' } },
              { key: second!, values: { data: { b: [1, 'two'] }, due: null } },
              { key: third!, values: { text: "it's", data: null, priority: 'low' } },
            ],
            { session },
          ),
        );
        expect(await notes.findOne({ key: first!, view: 'all' })).toEqual({
          id: first!['id'],
          text: 't0',
          priority: 'high',
          data: null,
          due: '2027-12-31',
        });
        expect(await notes.findOne({ key: second!, view: 'all' })).toMatchObject({
          data: { b: [1, 'two'] },
          due: null,
          priority: 'normal',
        });
        expect(await notes.findOne({ key: third!, view: 'all' })).toMatchObject({ text: "it's", priority: 'low' });
        await write((session) => notes.removeMany([first!, second!, third!], { session }));
      });

      it('applies several changes of one row in order, a later value winning', async () => {
        const [key] = await insertBooks([{ title: 'twice', pages: 1 }]);
        await write((session) =>
          books.updateEach(
            [
              { key: key!, values: { pages: 2, rating: 1 } },
              { key: key!, values: { title: 'twice changed' } },
              { key: key!, values: { pages: 3 } },
            ],
            { session },
          ),
        );
        expect(await books.findOne({ key: key!, view: 'all' })).toMatchObject({
          title: 'twice changed',
          pages: 3,
          rating: 1,
        });
        await removeBooks([key!]);
      });

      it('changes a key column of one row beside other rows of the same statement', async () => {
        const bookId = bookIds['Beta'];
        const keys = (
          await write((session) =>
            editions.insertMany(
              [
                { bookId, code: 'X1' },
                { bookId, code: 'X2' },
              ],
              { session },
            ),
          )
        ).map((entry) => entry.key);
        await write((session) =>
          editions.updateEach(
            [
              { key: keys[0]!, values: { code: 'X9', printRun: 7 } },
              { key: keys[1]!, values: { printRun: 8 } },
            ],
            { session },
          ),
        );
        expect(await editions.findOne({ key: { bookId, code: 'X9' }, view: 'all' })).toMatchObject({ printRun: 7 });
        expect(await editions.findOne({ key: keys[1]!, view: 'all' })).toMatchObject({ printRun: 8 });
        expect(await editions.findOne({ key: keys[0]!, view: 'all' })).toBeNull();
        await write((session) => editions.removeMany([{ bookId, code: 'X9' }, keys[1]!], { session }));
      });

      it('splits changes whose values outgrow the bound-parameter limit into statements under it', async () => {
        const rows = Array.from({ length: 200 }, () => ({ c0: 'before' }));
        const keys = (await write((session) => wides.insertMany(rows, { session }))).map((entry) => entry.key);
        const changes = keys.map((key, row) => ({
          key,
          values: Object.fromEntries(WIDE_COLUMNS.map((column) => [column, `${row}:${column}`])),
        }));
        const { sql } = await statementsOf(() => write((session) => wides.updateEach(changes, { session })));
        expect(sql.length).toBeGreaterThan(1);
        const stored = await Promise.all(keys.map((key) => wides.findOne({ key, view: 'all' })));
        const wrong = stored.filter((row, index) => row?.['c0'] !== `${index}:c0` || row['c169'] !== `${index}:c169`);
        expect(wrong).toEqual([]);
        await write((session) => wides.removeMany(keys, { session }));
      });

      it('binds decimal, bigint, time and date-time values with their column types', async () => {
        const stamp = new Date('2024-06-07T08:09:10.000Z');
        const written = await write((session) =>
          measures.insertMany([{ amount: '1.50', big: '7' }, { clock: '01:02:03' }, {}], { session }),
        );
        const [first, second, third] = written.map((entry) => entry.key);
        await write((session) =>
          measures.updateEach(
            [
              { key: first!, values: { amount: '12345678.91', big: '9007199254740993', stamp } },
              { key: second!, values: { amount: null, clock: '23:59:58', label: 'changed' } },
              { key: third!, values: { big: null, stamp: null, amount: '0.05' } },
            ],
            { session },
          ),
        );
        const [one, two, three] = await Promise.all(
          [first!, second!, third!].map((key) => measures.findOne({ key, view: 'all' })),
        );
        expect(Number(one!['amount'])).toBe(12345678.91);
        // SQLite keeps a bigint in a 64-bit integer; the driver reads it as a JavaScript number there.
        if (db.name !== 'sqlite') expect(String(one!['big'])).toBe('9007199254740993');
        expect((one!['stamp'] as Date).getTime()).toBe(stamp.getTime());
        expect(one).toMatchObject({ clock: null, label: 'kept' });
        expect(two).toMatchObject({ amount: null, clock: '23:59:58', label: 'changed', stamp: null });
        expect(Number(three!['amount'])).toBe(0.05);
        expect(three).toMatchObject({ big: null, stamp: null, label: 'kept' });
      });

      it('writes to-one relations given as objects, with or without a mapped foreign key', async () => {
        const keys = await insertBooks([{ title: 'rel-0', authorId: authorIds['Ann'] }, { title: 'rel-1' }]);
        await write((session) =>
          books.updateEach(
            [
              { key: keys[0]!, values: { author: null } },
              { key: keys[1]!, values: { author: { id: authorIds['Cid'] } } },
            ],
            { session },
          ),
        );
        expect((await books.findOne({ key: keys[0]!, view: 'all' }))?.['authorId']).toBeNull();
        expect((await books.findOne({ key: keys[1]!, view: 'all' }))?.['authorId']).toBe(authorIds['Cid']);
        const { key: review } = await write((session) =>
          reviews.insert({ rating: 2, book: { id: keys[0]!['id'] } }, { session }),
        );
        await write((session) =>
          reviews.updateEach([{ key: review, values: { book: { id: keys[1]!['id'] }, rating: 3 } }], { session }),
        );
        const stored = await dataSource
          .getRepository(Review)
          .findOne({ where: { id: review['id'] as number }, relations: { book: true } });
        expect(stored).toMatchObject({ rating: 3, book: { id: keys[1]!['id'] } });
        await write((session) => reviews.remove(review, { session }));
        await removeBooks(keys);
      });

      it('updates 100 rows in one statement, and 2,500 in statements of at most 200', async () => {
        const keys = await insertBooks(titled('ue2', 2_500));
        const change = (key: EntityKey, index: number) => ({
          key,
          values: index % 2 === 0 ? { pages: index + 1 } : { title: `ue2-${index} changed` },
        });
        const hundred = await statementsOf(() =>
          write((session) => books.updateEach(keys.slice(0, 100).map(change), { session })),
        );
        expect(hundred.sql).toHaveLength(1);
        const all = await statementsOf(() => write((session) => books.updateEach(keys.map(change), { session })));
        expect(all.sql).toHaveLength(13);
        const stored = await booksTitled('ue2-');
        const wrong = keys.filter((key, index) => {
          const row = stored.get(key['id'])!;
          return index % 2 === 0
            ? row['pages'] !== index + 1 || row['title'] !== `ue2-${index}`
            : row['pages'] !== index || row['title'] !== `ue2-${index} changed`;
        });
        expect(wrong).toEqual([]);
        await removeBooks(keys);
      });
    });

    describe('softDeleteMany', () => {
      it('sets the soft-delete marker of exactly the keyed rows, in statements of at most 1,000 keys', async () => {
        const keys = await insertBooks(titled('sd', 2_600));
        const { sql } = await statementsOf(() =>
          write((session) => books.softDeleteMany(keys.slice(0, 2_500), { session })),
        );
        expect(sql).toHaveLength(3);
        const live = await books.findMany({
          where: cond('title', 'startsWith', 'sd-'),
          sort: [],
          count: true,
          view: 'live',
        });
        expect(live.total).toBe(100);
        const deleted = await books.findMany({
          where: cond('title', 'startsWith', 'sd-'),
          sort: [],
          count: true,
          view: 'deleted',
        });
        expect(deleted.total).toBe(2_500);
        expect(deleted.rows.every((row) => row['deletedAt'] instanceof Date)).toBe(true);
        await removeBooks(keys);
      });
    });

    describe('removeMany', () => {
      it('removes exactly the keyed rows, in statements of at most 1,000 keys', async () => {
        const keys = await insertBooks(titled('rm', 2_600));
        const { sql } = await statementsOf(() => removeBooks(keys.slice(0, 2_500)));
        expect(sql).toHaveLength(3);
        const left = await booksTitled('rm-');
        expect([...left.keys()].sort()).toEqual(
          keys
            .slice(2_500)
            .map((key) => key['id'])
            .sort(),
        );
        expect(await books.findOne({ key: { id: bookIds['Alpha'] }, view: 'all' })).not.toBeNull();
        await removeBooks(keys.slice(2_500));
      });

      it('maps removing a still-referenced row to SVC_CONFLICT', async () => {
        await expect(
          write((session) => authors.removeMany([{ id: authorIds['Ann'] }], { session })),
        ).rejects.toMatchObject({ code: 'SVC_CONFLICT' });
      });
    });

    describe('findMany with lock', () => {
      for (const field of ['pages', 'id']) {
        it(`locks the rows it reads in a transaction but never its count, sorted by ${field}`, async () => {
          const { sql, result } = await statementsOf(() =>
            write((session) =>
              books.findMany({
                sort: [{ field, direction: 'asc' }],
                limit: 2,
                count: true,
                view: 'live',
                lock: true,
                session,
              }),
            ),
          );
          expect(result.rows).toHaveLength(2);
          expect(result.total).toBe((await books.findMany({ sort: [], count: true, view: 'live' })).total);
          // SQLite has no FOR UPDATE (its one writer locks the database), so its total still rides along the page.
          const locking = sql.filter((statement) => / FOR UPDATE$/.test(statement));
          expect(locking).toHaveLength(db.name === 'sqlite' ? 0 : 1);
          expect(locking.some((statement) => /COUNT\(\*\)/.test(statement))).toBe(false);
          expect(sql).toHaveLength(db.name === 'sqlite' ? 1 : 2);
        });
      }

      it('does not lock outside a transaction', async () => {
        const { sql } = await statementsOf(() =>
          books.findMany({ sort: [], limit: 1, count: false, view: 'live', lock: true }),
        );
        expect(sql.some((statement) => /FOR UPDATE/.test(statement))).toBe(false);
      });
    });
  });
});

describe('typeorm()', () => {
  let dataSource: TypeOrmDataSource;

  beforeAll(async () => {
    dataSource = await openTestDataSource({ name: 'sqlite' }, 'adapter_factory', BOOKSTORE_ENTITIES);
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  it('is named typeorm', () => {
    expect(typeorm().name).toBe('typeorm');
  });

  describe('when no DataSource is known yet', () => {
    it('refuses to create an adapter with SVC_CONFIG_INVALID saying how to fix it', () => {
      expect(() => typeorm().createAdapter(Book)).toThrow(
        expect.objectContaining({
          code: 'SVC_CONFIG_INVALID',
          detail: expect.stringContaining('typeorm({ dataSource })'),
        }),
      );
    });
  });

  describe('when bound to a framework', () => {
    it('resolves the DataSource class token', () => {
      const tokens: unknown[] = [];
      const infrastructure = typeorm();
      infrastructure.bind?.({
        resolve: <T>(token: unknown): T => {
          tokens.push(token);
          return dataSource as T;
        },
      });
      expect(tokens).toEqual([TypeOrmDataSource]);
      expect(infrastructure.createAdapter(Book).metadata.name).toBe('Book');
    });

    it('turns a failed lookup into SVC_CONFIG_INVALID', () => {
      const resolver = {
        resolve: (): never => {
          throw new Error('Nest could not find DataSource element');
        },
      };
      expect(() => typeorm().bind?.(resolver)).toThrow(expect.objectContaining({ code: 'SVC_CONFIG_INVALID' }));
    });
  });

  it('creates one adapter per entity class', () => {
    const infrastructure = typeorm({ dataSource });
    expect(infrastructure.createAdapter(Book)).toBe(infrastructure.createAdapter(Book));
    expect(infrastructure.createAdapter(Book)).not.toBe(infrastructure.createAdapter(Author));
  });

  it('refuses a class that is not an entity of the DataSource', () => {
    class Stranger {}
    expect(() => typeorm({ dataSource }).createAdapter(Stranger)).toThrow(
      expect.objectContaining({ code: 'SVC_CONFIG_INVALID' }),
    );
  });
});
