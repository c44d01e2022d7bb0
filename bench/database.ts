/** The benchmark database: a temp SQLite file, or schema `svc_bench` of BENCH_DATABASE_URL (PostgreSQL); seeding. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { BENCH_ENTITIES, BenchAuthor, BenchBook } from './entities';

export type BenchDatabaseName = 'sqlite' | 'postgres';

export interface BenchDatabase {
  readonly name: BenchDatabaseName;
  /** What the server process needs to open the same data: a SQLite file path or a PostgreSQL URL. */
  readonly location: string;
}

export const BENCH_SCHEMA = 'svc_bench';

/** DataSourceOptions both apps use; identical on each side so the comparison is about the code above them. */
export function benchDataSourceOptions(db: BenchDatabase): DataSourceOptions {
  const common = { entities: BENCH_ENTITIES, synchronize: false, logging: false } as const;
  if (db.name === 'sqlite') return { type: 'better-sqlite3', database: db.location, enableWAL: true, ...common };
  return { type: 'postgres', url: db.location, schema: BENCH_SCHEMA, ...common };
}

export function sqliteBenchDatabase(): BenchDatabase {
  return { name: 'sqlite', location: join(mkdtempSync(join(tmpdir(), 'svc-bench-')), 'bench.db') };
}

/**
 * Creates the tables afresh and inserts `books` books spread over `books / 20` authors (500 for 10,000 books), book i
 * by author `1 + i % authors`. Titles are `Book 00001` ... and pages 50 ... 949, so `pages >= 100` and a title
 * containing `1` select about a third of the books together (3,244 of 10,000).
 */
export async function seedBenchDatabase(db: BenchDatabase, books: number): Promise<void> {
  if (db.name === 'postgres') {
    const admin = await new DataSource({ type: 'postgres', url: db.location, logging: false }).initialize();
    try {
      await admin.query(`DROP SCHEMA IF EXISTS "${BENCH_SCHEMA}" CASCADE`);
      await admin.query(`CREATE SCHEMA "${BENCH_SCHEMA}"`);
    } finally {
      await admin.destroy();
    }
  }
  const dataSource = await new DataSource({ ...benchDataSourceOptions(db), synchronize: true }).initialize();
  try {
    const authorCount = Math.max(1, Math.ceil(books / 20));
    await insertChunked(
      dataSource,
      BenchAuthor,
      Array.from({ length: authorCount }, (_, i) => ({ name: `Author ${i + 1}`, country: i % 3 === 0 ? null : 'GB' })),
    );
    await insertChunked(
      dataSource,
      BenchBook,
      Array.from({ length: books }, (_, i) => ({
        title: `Book ${String(i + 1).padStart(5, '0')}`,
        pages: 50 + ((i * 37) % 900),
        rating: i % 10 === 0 ? null : 1 + ((i * 13) % 40) / 10,
        published: i % 4 !== 0,
        authorId: 1 + (i % authorCount),
      })),
    );
    if (db.name === 'postgres') await dataSource.query(`ANALYZE "${BENCH_SCHEMA}"."bench_book"`);
  } finally {
    await dataSource.destroy();
  }
}

async function insertChunked(dataSource: DataSource, entity: Function, rows: object[]): Promise<void> {
  for (let start = 0; start < rows.length; start += 500) {
    await dataSource
      .createQueryBuilder()
      .insert()
      .into(entity)
      .values(rows.slice(start, start + 500))
      .execute();
  }
}
