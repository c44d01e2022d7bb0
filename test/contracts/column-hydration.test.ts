/**
 * The TypeORM adapter reads a column's values through a hydrator chosen once per column (`column-hydration.ts`). Each
 * one must answer exactly what the driver's `prepareHydratedValue` answers: checked here, on every configured
 * database, for every column of the bookstore entities and a probe entity with the types the fixtures lack, over the
 * rows the database sends back and values that push at each case's edges.
 */
import { Column, DataSource, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { hydratorOf } from '../../packages/typeorm/src/column-hydration';
import { dialectOf } from '../../packages/typeorm/src/database-dialect';
import { quotePath } from '../../packages/typeorm/src/entity-table';
import { BOOKSTORE_ENTITIES, Author, Book, Note } from '../fixtures/bookstore-entities';
import { openTestDataSource, TEST_DATABASES } from '../support/test-databases';

@Entity('hydration_probe')
class HydrationProbe {
  @PrimaryGeneratedColumn() id!: number;
  /** Reflected `Number`: the drivers parse it with parseInt. */
  @Column() count!: number;
  /** Reflected `Boolean`. */
  @Column() flag!: boolean;
  @Column({ type: 'decimal', precision: 8, scale: 2, nullable: true }) price!: string | null;
  @Column({ type: 'bigint', nullable: true }) big!: string | null;
  @Column({
    type: 'varchar',
    length: 20,
    nullable: true,
    transformer: {
      from: (value: string | null) => (value === null ? 'NONE' : value.toUpperCase()),
      to: (v: unknown) => v,
    },
  })
  shouted!: string | null;
}

/** SQLite datetime text at and past every edge of the hydrator's own reading. */
const SQLITE_DATETIMES = [
  '2026-11-24 14:00:07',
  '2026-11-24 14:00:07.123',
  '1970-01-01 00:00:00',
  '9999-12-31 23:59:59.999',
  '0100-01-01 00:00:00',
  '0099-12-31 23:59:59',
  '2021-02-31 00:00:00',
  '2024-02-29 12:00:00',
  '2021-13-01 00:00:00',
  '2021-00-10 00:00:00',
  '2021-01-00 00:00:00',
  '2021-01-32 00:00:00',
  '2021-01-01 24:00:00',
  '2021-01-01 23:60:00',
  '2021-01-01 23:59:60',
  '2026-11-24T14:00:07',
  '2026-11-24T14:00:07.123Z',
  '2026-11-24 14:00',
  '2026-11-24 14:00:07+02:00',
  '2026-11-24 14:00:07.1234',
  '2026-11-24 14:00:07.12',
  '2026-11-24',
  '2026-1a-24 14:00:07',
  '2026/11/24 14:00:07',
  'not a date at all!!',
  '',
];

const EDGE_VALUES: unknown[] = [
  null,
  undefined,
  0,
  1,
  2.5,
  -3,
  '0',
  '1',
  '42',
  '4.75',
  'abc',
  '',
  true,
  false,
  new Date('2026-11-24T14:00:07.123Z'),
  new Date(Number.NaN),
];

/** A comparable form of a hydrated value: Dates by instant (or invalid), a thrown error by its message. */
function outcome(hydrate: () => unknown): unknown {
  try {
    const value = hydrate();
    if (value instanceof Date) return { date: Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString() };
    return { value };
  } catch (error) {
    return { threw: error instanceof Error ? error.message : String(error) };
  }
}

describe.each(TEST_DATABASES)('column hydration on $name', (db) => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await openTestDataSource(db, 'column_hydration', [...BOOKSTORE_ENTITIES, HydrationProbe]);
    const author = await dataSource.getRepository(Author).save({ name: 'Ann', country: null });
    await dataSource.getRepository(Book).save([
      { title: 'Alpha', pages: 100, rating: 4.5, published: true, isbn: 'A-1', authorId: author.id },
      { title: 'Beta', pages: 0, rating: null, published: false, isbn: null, authorId: null },
    ]);
    await dataSource.getRepository(Note).save([
      { text: 'n1', priority: 'high', data: { a: [1, 'two'] }, due: '2026-01-31' },
      { text: 'n2', data: null, due: null },
    ]);
    await dataSource.getRepository(HydrationProbe).save([
      { count: 7, flag: true, price: '12.50', big: '9007199254740993', shouted: 'quiet' },
      { count: 0, flag: false, price: null, big: null, shouted: null },
    ]);
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  it('answers what the driver answers for every column, over the rows read back and edge values', async () => {
    const dialect = dialectOf(dataSource);
    let compared = 0;
    for (const metadata of dataSource.entityMetadatas) {
      const raw = (await dataSource.query(
        `SELECT * FROM ${quotePath(dataSource.driver, metadata.tablePath)}`,
      )) as Record<string, unknown>[];
      for (const column of metadata.columns.filter(
        (candidate) => !candidate.relationMetadata || candidate.databaseName,
      )) {
        const hydrate = hydratorOf(dataSource.driver, dialect, column);
        const samples = [...raw.map((row) => row[column.databaseName]), ...EDGE_VALUES];
        if (dialect === 'sqlite') samples.push(...SQLITE_DATETIMES);
        for (const value of samples) {
          const expected = outcome(() => dataSource.driver.prepareHydratedValue(value, column));
          expect({
            column: `${metadata.name}.${column.propertyPath}`,
            value,
            got: outcome(() => hydrate(value)),
          }).toEqual({ column: `${metadata.name}.${column.propertyPath}`, value, got: expected });
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it('reads SQLite datetime text in its own format without the driver, to the same instant', () => {
    if (db.name !== 'sqlite') return;
    const createdAt = dataSource.getMetadata(Author).findColumnWithPropertyName('createdAt')!;
    const viaDriver = jest.spyOn(dataSource.driver, 'prepareHydratedValue');
    const hydrate = hydratorOf(dataSource.driver, 'sqlite', createdAt);
    expect(hydrate('2026-11-24 14:00:07.123')).toEqual(new Date('2026-11-24T14:00:07.123Z'));
    expect(viaDriver).not.toHaveBeenCalled();
    expect(hydrate('2026-11-24T14:00:07')).toEqual(new Date('2026-11-24T14:00:07Z'));
    expect(viaDriver).toHaveBeenCalledTimes(1);
    viaDriver.mockRestore();
  });

  it('keeps a date node-postgres or mysql2 read as it is, without the driver, and gives text to the driver', () => {
    if (db.name === 'sqlite') return;
    const createdAt = dataSource.getMetadata(Author).findColumnWithPropertyName('createdAt')!;
    const viaDriver = jest.spyOn(dataSource.driver, 'prepareHydratedValue');
    const hydrate = hydratorOf(dataSource.driver, dialectOf(dataSource), createdAt);
    const read = new Date('2026-11-24T14:00:07.123Z');
    expect(hydrate(read)).toBe(read);
    expect(viaDriver).not.toHaveBeenCalled();
    expect(hydrate('2026-11-24T14:00:07Z')).toEqual(new Date('2026-11-24T14:00:07Z'));
    expect(viaDriver).toHaveBeenCalledTimes(1);
    viaDriver.mockRestore();
  });
});
