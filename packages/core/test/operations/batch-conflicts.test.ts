import { ConflictException, createSvc, SvcException, type EntityConfig, type Row } from '@svc/core';
import type { EntityMetadata, FindManyArgs, FindManyResult, WriteArgs, WrittenRow } from '@svc/core/spi';
import { MemoryRepositoryAdapter } from '../support/memory-adapter';
import { BOOK_METADATA } from '../support/fixtures';

const METADATA: EntityMetadata = { ...BOOK_METADATA, uniques: [['title']] };

const DETAIL = 'Another Book already has this title. Use a different value, or update the existing Book.';

/** Keeps `title` unique as a database would, refusing a whole insertMany with the conflict it is set to raise. */
class UniqueTitleAdapter extends MemoryRepositoryAdapter {
  conflict = (): SvcException => new ConflictException(DETAIL, undefined, { unique: ['title'] });
  /** Fails the reads made outside a transaction, as a lost connection would. */
  failLooseReads = false;

  override async insertMany(rows: readonly Row[], args: WriteArgs): Promise<WrittenRow[]> {
    const titles = new Set(this.rows.map((row) => row['title']));
    for (const row of rows) {
      if (titles.has(row['title'])) throw this.conflict();
      titles.add(row['title']);
    }
    return super.insertMany(rows, args);
  }

  override async findMany(args: FindManyArgs): Promise<FindManyResult> {
    if (this.failLooseReads && !args.session) throw new Error('connection lost');
    return super.findMany(args);
  }
}

function setup() {
  const adapter = new UniqueTitleAdapter(METADATA, [{ id: 1, title: 'Stored', pages: 1 }]);
  const config = { batch: { create: true } } as EntityConfig;
  const service = createSvc({}).createCrud(METADATA.target, config, { adapter });
  const createMany = (body: unknown[]) => service.engine.execute({ operation: 'createMany', body });
  return { adapter, createMany };
}

async function failure(work: Promise<unknown>): Promise<SvcException> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof SvcException)) throw new Error(`expected an SvcException, got ${String(error)}`);
  return error;
}

describe('createMany refused by a unique violation', () => {
  describe('when the adapter names the violated set', () => {
    it('names the item whose value a stored row holds, and keeps nothing of the batch', async () => {
      const { adapter, createMany } = setup();
      const error = await failure(createMany([{ title: 'Fresh' }, { title: 'Stored' }]));
      expect(error).toMatchObject({ code: 'SVC_CONFLICT', status: 409, unique: ['title'] });
      expect(error.errors).toEqual([
        {
          field: '[1].title',
          code: 'duplicate',
          detail: 'Another Book already has this title. Use a different value, or update that Book instead.',
        },
      ]);
      expect(adapter.rows.map((row) => row['title'])).toEqual(['Stored']);
    });
  });

  describe('when the adapter names no set', () => {
    it('traces every set the entity keeps unique', async () => {
      const { adapter, createMany } = setup();
      adapter.conflict = () => new ConflictException(DETAIL, undefined, { unique: [] });
      const error = await failure(createMany([{ title: 'Fresh' }, { title: 'Fresh' }]));
      expect(error.errors?.map((item) => item.field)).toEqual(['[1].title']);
    });
  });

  describe('when the read that traces it fails', () => {
    it("answers the adapter's 409 as it was", async () => {
      const { adapter, createMany } = setup();
      adapter.failLooseReads = true;
      const error = await failure(createMany([{ title: 'Fresh' }, { title: 'Stored' }]));
      expect(error).toMatchObject({ code: 'SVC_CONFLICT', detail: DETAIL });
      expect(error.errors).toBeUndefined();
    });
  });

  describe('when no item holds a value of the named set', () => {
    it("answers the adapter's 409 as it was", async () => {
      const { adapter, createMany } = setup();
      adapter.conflict = () => new ConflictException(DETAIL, undefined, { unique: ['code'] });
      const error = await failure(createMany([{ title: 'Fresh' }, { title: 'Stored' }]));
      expect(error).toMatchObject({ detail: DETAIL, unique: ['code'] });
      expect(error.errors).toBeUndefined();
    });
  });

  describe('when the conflict is no unique violation', () => {
    it('answers it as it was', async () => {
      const { adapter, createMany } = setup();
      const other = new ConflictException('Some other conflict. Read the row again.');
      adapter.conflict = () => other;
      expect(await failure(createMany([{ title: 'Stored' }]))).toBe(other);
    });
  });
});
