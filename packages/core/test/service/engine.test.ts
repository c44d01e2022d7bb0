import { computeEtag } from '../../src/cache/etag';
import {
  createSvc,
  PROBLEM_CONTENT_TYPE,
  SvcException,
  toProblemDetails,
  type EntityConfig,
  type PolicyArgs,
  type Row,
  type SvcOptions,
} from '@svc/core';
import { EXPOSE_INTERNALS, type EntityMetadata, type ExecuteRequest } from '@svc/core/spi';
import { MemoryRepositoryAdapter, type MemoryAdapterOptions } from '../support/memory-adapter';
import { BOOK_METADATA, NOTE_METADATA } from '../support/fixtures';

type Loose = Record<string, unknown>;

const DELETED_AT = new Date('2024-02-01T00:00:00Z');

function seedBooks(): Row[] {
  return [
    { id: 1, title: 'Alpha', pages: 100, rating: 4.5, published: true, status: 'live', tenant: 't1' },
    { id: 2, title: 'Beta', pages: 200, tenant: 't2' },
    { id: 3, title: 'Gamma', pages: 300, tenant: 't1' },
    { id: 4, title: 'Gone', pages: 10, tenant: 't1', deletedAt: DELETED_AT },
  ];
}

interface Setup {
  readonly config?: Loose;
  readonly global?: Loose;
  readonly metadata?: EntityMetadata;
  readonly seed?: Row[];
  readonly adapter?: MemoryAdapterOptions;
}

function setup(args: Setup = {}) {
  const metadata = args.metadata ?? BOOK_METADATA;
  const adapter = new MemoryRepositoryAdapter(
    metadata,
    args.seed ?? (metadata === BOOK_METADATA ? seedBooks() : []),
    args.adapter,
  );
  const service = createSvc((args.global ?? {}) as SvcOptions).createCrud(
    metadata.target,
    (args.config ?? {}) as EntityConfig,
    { adapter },
  );
  const execute = (request: ExecuteRequest) => service.engine.execute(request);
  const stored = (id: number) => adapter.rows.find((row) => row.id === id);
  return { adapter, service, execute, stored };
}

async function failure(work: Promise<unknown>): Promise<SvcException> {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(SvcException);
    return error as SvcException;
  }
  throw new Error('expected the operation to fail');
}

describe('SvcEngine', () => {
  describe('findMany', () => {
    describe('when called with no query', () => {
      it('answers 200 with the list envelope of live rows and no ETag', async () => {
        const { execute } = setup();
        const response = await execute({ operation: 'findMany' });
        expect(response.status).toBe(200);
        expect(response.etag).toBeUndefined();
        expect(response.body).toMatchObject({ limit: 20, offset: 0, total: 3 });
        const body = response.body as { items: Row[]; meta?: unknown };
        expect(body.items.map((item) => item.title)).toEqual(['Alpha', 'Beta', 'Gamma']);
        expect(body).not.toHaveProperty('meta');
      });

      it('serves dates as ISO strings', async () => {
        const { service } = setup();
        const { items } = await service.findMany();
        expect(items[0]!.createdAt).toBe('2024-01-01T00:00:00.000Z');
      });
    });

    describe('when the query comes from the wire', () => {
      it('resolves the raw pairs', async () => {
        const { execute } = setup();
        const response = await execute({
          operation: 'findMany',
          query: [
            ['filter[pages][gte]', '200'],
            ['sort', '-pages'],
          ],
        });
        expect((response.body as { items: Row[] }).items.map((item) => item.title)).toEqual(['Gamma', 'Beta']);
      });
    });

    describe('when per-call settings change pagination', () => {
      it('uses them for that call only', async () => {
        const { service } = setup();
        const page = await service.findMany({}, { settings: { pagination: { defaultLimit: 2 } } });
        expect(page).toMatchObject({ limit: 2, total: 3 });
        expect(page.items).toHaveLength(2);
        expect((await service.findMany()).limit).toBe(20);
      });

      it('turns the count off with pagination.count false', async () => {
        const { service } = setup();
        expect((await service.findMany({}, { settings: { pagination: { count: false } } })).total).toBeNull();
      });
    });

    describe('when per-call settings turn soft delete off', () => {
      it('reads deleted rows too', async () => {
        const { service } = setup();
        const page = await service.findMany({}, { settings: { delete: false } });
        expect(page.items.map((item) => item.title)).toContain('Gone');
      });
    });

    describe('when asked for deleted rows', () => {
      it('reads only them with onlyDeleted', async () => {
        const { service } = setup();
        expect((await service.findMany({ onlyDeleted: true })).items.map((item) => item.id)).toEqual([4]);
      });
    });

    describe('when the query is invalid', () => {
      it('rejects it with 400 SVC_QUERY_INVALID', async () => {
        const { service } = setup();
        const error = await failure(service.findMany({ filter: { pagez: { eq: 1 } } }));
        expect(error).toMatchObject({ status: 400, code: 'SVC_QUERY_INVALID' });
      });
    });
  });

  describe('findOne', () => {
    describe('when the row exists', () => {
      it('answers 200 with the row and a strong ETag of its representation', async () => {
        const { execute } = setup();
        const response = await execute({ operation: 'findOne', id: 1 });
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ id: 1, title: 'Alpha', deletedAt: null });
        expect(response.etag).toBe(computeEtag(response.body));
        expect(response.etag).toMatch(/^"[0-9a-z]+"$/);
        expect(response.headers).toEqual({ ETag: response.etag });
      });

      it('coerces a string id from the route', async () => {
        const { service } = setup();
        expect(await service.findOne('3')).toMatchObject({ id: 3, title: 'Gamma' });
      });

      it('gives the same ETag on every read of an unchanged row', async () => {
        const { execute } = setup();
        expect((await execute({ operation: 'findOne', id: 1 })).etag).toBe(
          (await execute({ operation: 'findOne', id: 1 })).etag,
        );
      });
    });

    describe('when the row does not exist or is soft-deleted', () => {
      it.each([99, 4])('answers 404 SVC_NOT_FOUND for id %p with entity and id params', async (id) => {
        const { service } = setup();
        const error = await failure(service.findOne(id));
        expect(error).toMatchObject({ status: 404, code: 'SVC_NOT_FOUND', params: { entity: 'Book', id } });
      });
    });

    describe('when the id is malformed', () => {
      it('answers 400 SVC_QUERY_INVALID naming id', async () => {
        const { service } = setup();
        const error = await failure(service.findOne('abc'));
        expect(error).toMatchObject({ status: 400, code: 'SVC_QUERY_INVALID' });
        expect(error.errors![0]!.param).toBe('id');
      });
    });

    describe('when If-None-Match is sent', () => {
      it.each([
        ['the current ETag', (etag: string) => etag],
        ['the weak form of the current ETag', (etag: string) => `W/${etag}`],
        ['a list holding the current ETag', (etag: string) => `"other", ${etag}`],
        ['*', () => '*'],
      ])('answers 304 with no body for %s', async (_label, header) => {
        const { execute } = setup();
        const { etag } = await execute({ operation: 'findOne', id: 1 });
        const response = await execute({ operation: 'findOne', id: 1, headers: { ifNoneMatch: header(etag!) } });
        expect(response.status).toBe(304);
        expect(response.body).toBeUndefined();
        expect(response.etag).toBe(etag);
      });

      it('answers 200 when the ETag is stale', async () => {
        const { execute } = setup();
        expect((await execute({ operation: 'findOne', id: 1, headers: { ifNoneMatch: '"stale"' } })).status).toBe(200);
      });
    });

    describe('when per-call settings turn soft delete off', () => {
      it('reads a soft-deleted row, as findMany does', async () => {
        const { service } = setup();
        await expect(service.findOne(4, { settings: { delete: false } })).resolves.toMatchObject({ id: 4 });
      });
    });
  });

  describe('createOne', () => {
    describe('when the body is valid', () => {
      it('answers 201 with the stored row, its ETag and its route id', async () => {
        const { execute } = setup();
        const response = await execute({ operation: 'createOne', body: { title: 'Delta' } });
        expect(response.status).toBe(201);
        expect(response.body).toMatchObject({
          id: 5,
          title: 'Delta',
          pages: 0,
          published: false,
          status: 'draft',
          rating: null,
        });
        expect(response.etag).toBe(computeEtag(response.body));
        expect(response.resourceId).toBe('5');
      });

      it('strips a generated primary key, generated columns and the marker silently', async () => {
        const { service, stored } = setup();
        const created = await service.createOne({ id: 77, title: 'Delta', createdAt: 'x', deletedAt: 'x' });
        expect(created).toMatchObject({ id: 5, deletedAt: null });
        expect(stored(77)).toBeUndefined();
      });
    });

    describe('when a required field is missing', () => {
      it('answers 400 SVC_VALIDATION_FAILED naming it', async () => {
        const { service } = setup();
        const error = await failure(service.createOne({ pages: 3 }));
        expect(error).toMatchObject({ status: 400, code: 'SVC_VALIDATION_FAILED' });
        expect(error.errors).toEqual([expect.objectContaining({ field: 'title', code: 'required' })]);
      });
    });

    describe('when a value has the wrong type', () => {
      it('answers 400 naming every bad field', async () => {
        const { service } = setup();
        const error = await failure(service.createOne({ title: 5, pages: 'many', status: 'gone' }));
        expect(error.errors!.map((item) => item.field)).toEqual(['title', 'pages', 'status']);
      });
    });

    describe('when the body is not an object', () => {
      it.each([null, [], 'x'])('answers 400 SVC_MALFORMED_REQUEST for %p', async (body) => {
        const { execute } = setup();
        const error = await failure(execute({ operation: 'createOne', body }));
        expect(error).toMatchObject({ status: 400, code: 'SVC_MALFORMED_REQUEST' });
      });
    });

    describe('when If-Match is sent', () => {
      it('answers 412 SVC_PRECONDITION_UNSUPPORTED and writes nothing', async () => {
        const { execute, adapter } = setup();
        const error = await failure(
          execute({ operation: 'createOne', body: { title: 'X' }, headers: { ifMatch: '*' } }),
        );
        expect(error).toMatchObject({ status: 412, code: 'SVC_PRECONDITION_UNSUPPORTED' });
        expect(adapter.rows).toHaveLength(4);
      });
    });

    describe('when filter.apply would hide the new row', () => {
      it('answers the same whether or not the adapter returns the inserted row', async () => {
        const config = { filter: { apply: ({ context }: { context: Loose }) => ({ tenant: { eq: context.tenant } }) } };
        const outcome = async (adapter: MemoryAdapterOptions) => {
          const { service } = setup({ config, adapter });
          return service.createOne({ title: 'X', tenant: 't2' }, { context: { tenant: 't1' } }).then(
            () => 'created',
            (error: SvcException) => error.code,
          );
        };
        expect(await outcome({ insertReturnsRow: false })).toBe(await outcome({ insertReturnsRow: true }));
      });
    });
  });

  describe('updateOne', () => {
    describe('when the body replaces the row', () => {
      it('answers 200 with the new row and a new ETag', async () => {
        const { execute } = setup();
        const before = await execute({ operation: 'findOne', id: 1 });
        const response = await execute({ operation: 'updateOne', id: 1, body: { title: 'Alpha 2' } });
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ id: 1, title: 'Alpha 2' });
        expect(response.etag).toBe(computeEtag(response.body));
        expect(response.etag).not.toBe(before.etag);
      });

      it('resets a left-out field with a literal default to that default and a left-out nullable field to null', async () => {
        const { service } = setup();
        const updated = await service.updateOne(1, { title: 'Alpha 2' });
        expect(updated).toMatchObject({
          pages: 0,
          published: false,
          status: 'draft',
          rating: null,
          tenant: null,
          code: null,
        });
      });

      it('keeps the primary key and generated columns', async () => {
        const { service } = setup();
        expect(await service.updateOne(1, { id: 9, title: 'A', createdAt: '2020-01-01' })).toMatchObject({
          id: 1,
          createdAt: '2024-01-01T00:00:00.000Z',
        });
      });
    });

    describe('when a required field is left out', () => {
      it('answers 400 SVC_VALIDATION_FAILED naming it and changes nothing', async () => {
        const { service, stored } = setup();
        const error = await failure(service.updateOne(1, { pages: 3 }));
        expect(error.code).toBe('SVC_VALIDATION_FAILED');
        expect(error.errors).toEqual([expect.objectContaining({ field: 'title', code: 'required' })]);
        expect(stored(1)!.pages).toBe(100);
      });
    });

    describe('when the row is missing or soft-deleted', () => {
      it.each([99, 4])('answers 404 for id %p', async (id) => {
        const { service } = setup();
        expect((await failure(service.updateOne(id, { title: 'x' }))).code).toBe('SVC_NOT_FOUND');
      });
    });
  });

  describe('patchOne', () => {
    describe('when the body names some fields', () => {
      it('changes only those and leaves the rest', async () => {
        const { service } = setup();
        expect(await service.patchOne(1, { pages: 5 })).toMatchObject({
          title: 'Alpha',
          pages: 5,
          rating: 4.5,
          status: 'live',
          tenant: 't1',
        });
      });

      it('strips the primary key, generated columns and the marker silently', async () => {
        const { service, stored } = setup();
        await service.patchOne(1, { id: 9, createdAt: '2020-01-01', deletedAt: '2020-01-01', title: 'T' });
        expect(stored(1)).toMatchObject({ id: 1, title: 'T', deletedAt: null });
        expect(stored(9)).toBeUndefined();
      });

      it('changes the ETag', async () => {
        const { execute } = setup();
        const before = await execute({ operation: 'findOne', id: 1 });
        const after = await execute({ operation: 'patchOne', id: 1, body: { pages: 5 } });
        expect(after.etag).not.toBe(before.etag);
        expect(after.etag).toBe((await execute({ operation: 'findOne', id: 1 })).etag);
      });
    });

    describe('when the patch changes nothing', () => {
      it.each([{}, { id: 1, createdAt: 'x' }])('answers 400 SVC_VALIDATION_FAILED for %p', async (body) => {
        const { service } = setup();
        const error = await failure(service.patchOne(1, body));
        expect(error).toMatchObject({ status: 400, code: 'SVC_VALIDATION_FAILED' });
      });
    });

    describe('when the body names a key that is not writable', () => {
      it('answers 400 naming it with a did-you-mean', async () => {
        const { service } = setup();
        const error = await failure(service.patchOne(1, { titel: 'x' }));
        expect(error.code).toBe('SVC_VALIDATION_FAILED');
        expect(error.errors).toEqual([
          expect.objectContaining({
            field: 'titel',
            code: 'not_writable',
            detail: expect.stringContaining("Did you mean 'title'?"),
          }),
        ]);
      });

      it('answers 400 for a field schema.input.patch leaves out', async () => {
        const { service } = setup({ config: { schema: { input: { patch: ['pages'] } } } });
        const error = await failure(service.patchOne(1, { title: 'x' }));
        expect(error.errors![0]).toMatchObject({ field: 'title', code: 'not_writable' });
      });
    });
  });

  describe('If-Match', () => {
    describe('when it matches the current ETag', () => {
      it.each(['updateOne', 'patchOne'] as const)('lets %s write', async (operation) => {
        const { execute } = setup();
        const { etag } = await execute({ operation: 'findOne', id: 1 });
        const response = await execute({ operation, id: 1, body: { title: 'New' }, headers: { ifMatch: etag } });
        expect(response.status).toBe(200);
      });

      it('lets deleteOne delete', async () => {
        const { execute } = setup();
        const { etag } = await execute({ operation: 'findOne', id: 1 });
        expect((await execute({ operation: 'deleteOne', id: 1, headers: { ifMatch: etag } })).status).toBe(204);
      });

      it('matches * against any current row', async () => {
        const { execute } = setup();
        expect(
          (await execute({ operation: 'patchOne', id: 1, body: { pages: 1 }, headers: { ifMatch: '*' } })).status,
        ).toBe(200);
      });
    });

    describe('when it does not match', () => {
      it.each([
        ['updateOne', { title: 'New' }],
        ['patchOne', { title: 'New' }],
        ['deleteOne', undefined],
      ] as const)('makes %s answer 412 SVC_PRECONDITION_FAILED and write nothing', async (operation, body) => {
        const { execute, stored } = setup();
        const error = await failure(execute({ operation, id: 1, body, headers: { ifMatch: '"stale"' } }));
        expect(error).toMatchObject({ status: 412, code: 'SVC_PRECONDITION_FAILED' });
        expect(stored(1)).toMatchObject({ title: 'Alpha', deletedAt: null });
      });

      it('refuses a weak ETag, since If-Match compares strongly', async () => {
        const { execute } = setup();
        const { etag } = await execute({ operation: 'findOne', id: 1 });
        const error = await failure(
          execute({ operation: 'patchOne', id: 1, body: { pages: 1 }, headers: { ifMatch: `W/${etag}` } }),
        );
        expect(error.code).toBe('SVC_PRECONDITION_FAILED');
      });

      it('makes restoreOne and purgeOne answer 412', async () => {
        const { execute } = setup();
        for (const operation of ['restoreOne', 'purgeOne'] as const) {
          expect((await failure(execute({ operation, id: 4, headers: { ifMatch: '"stale"' } }))).code).toBe(
            'SVC_PRECONDITION_FAILED',
          );
        }
      });
    });
  });

  describe('when cache.etag is false', () => {
    it('serves no ETag', async () => {
      const { execute } = setup({ config: { cache: { etag: false } } });
      const response = await execute({ operation: 'findOne', id: 1 });
      expect(response.etag).toBeUndefined();
      expect(response.headers).toEqual({});
    });

    it('ignores If-Match on writes and on createOne', async () => {
      const { execute } = setup({ config: { cache: { etag: false } } });
      expect(
        (await execute({ operation: 'patchOne', id: 1, body: { pages: 1 }, headers: { ifMatch: '"stale"' } })).status,
      ).toBe(200);
      expect((await execute({ operation: 'createOne', body: { title: 'X' }, headers: { ifMatch: '*' } })).status).toBe(
        201,
      );
    });

    it('ignores If-None-Match', async () => {
      const { execute } = setup({ config: { cache: false } });
      expect((await execute({ operation: 'findOne', id: 1, headers: { ifNoneMatch: '*' } })).status).toBe(200);
    });

    it('can be set per operation', async () => {
      const { execute } = setup({ config: { operations: { findOne: { cache: { etag: false } }, patchOne: true } } });
      expect((await execute({ operation: 'findOne', id: 1 })).etag).toBeUndefined();
      expect((await execute({ operation: 'patchOne', id: 1, body: { pages: 1 } })).etag).toBeDefined();
    });

    it('can be set per call', async () => {
      const { execute } = setup();
      expect((await execute({ operation: 'findOne', id: 1, settings: { cache: false } })).etag).toBeUndefined();
    });
  });

  describe('deleteOne', () => {
    describe('when the entity soft-deletes', () => {
      it('answers 204 and sets the marker', async () => {
        const { execute, stored } = setup();
        const response = await execute({ operation: 'deleteOne', id: 1 });
        expect(response).toMatchObject({ status: 204, headers: {} });
        expect(response.body).toBeUndefined();
        expect(stored(1)!.deletedAt).toBeInstanceOf(Date);
      });

      it('answers 409 SVC_ALREADY_DELETED the second time', async () => {
        const { service } = setup();
        await service.deleteOne(1);
        const error = await failure(service.deleteOne(1));
        expect(error).toMatchObject({ status: 409, code: 'SVC_ALREADY_DELETED', params: { entity: 'Book', id: 1 } });
      });

      it('hides the row from findOne and findMany afterwards', async () => {
        const { service } = setup();
        await service.deleteOne(1);
        expect((await failure(service.findOne(1))).code).toBe('SVC_NOT_FOUND');
        expect((await service.findMany()).items.map((item) => item.id)).toEqual([2, 3]);
      });
    });

    describe('when the entity hard-deletes', () => {
      it('removes the row, and a second delete is 404', async () => {
        const { service, adapter } = setup({ metadata: NOTE_METADATA, seed: [{ id: 1, body: 'hi' }] });
        await expect(service.deleteOne(1)).resolves.toBeUndefined();
        expect(adapter.rows).toEqual([]);
        expect((await failure(service.deleteOne(1))).code).toBe('SVC_NOT_FOUND');
      });
    });

    describe("when delete.strategy is 'hard' on an entity with the marker", () => {
      it('removes the row', async () => {
        const { service, stored } = setup({ config: { delete: { strategy: 'hard' } } });
        await service.deleteOne(1);
        expect(stored(1)).toBeUndefined();
      });
    });
  });

  describe('restoreOne', () => {
    describe('when the row is soft-deleted', () => {
      it('answers 200 with the live row and an ETag', async () => {
        const { execute, stored } = setup();
        const response = await execute({ operation: 'restoreOne', id: 4 });
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ id: 4, deletedAt: null });
        expect(response.etag).toBe(computeEtag(response.body));
        expect(stored(4)!.deletedAt).toBeNull();
      });
    });

    describe('when the row is live', () => {
      it('answers 409 SVC_NOT_DELETED', async () => {
        const { service } = setup();
        expect(await failure(service.restoreOne(1))).toMatchObject({ status: 409, code: 'SVC_NOT_DELETED' });
      });
    });
  });

  describe('purgeOne', () => {
    describe('when the row is soft-deleted', () => {
      it('answers 204 and removes it for good', async () => {
        const { execute, stored } = setup();
        expect((await execute({ operation: 'purgeOne', id: 4 })).status).toBe(204);
        expect(stored(4)).toBeUndefined();
      });
    });

    describe('when the row is live', () => {
      it('answers 409 SVC_NOT_DELETED and keeps it', async () => {
        const { service, stored } = setup();
        expect(await failure(service.purgeOne(1))).toMatchObject({ status: 409, code: 'SVC_NOT_DELETED' });
        expect(stored(1)).toBeDefined();
      });
    });
  });

  describe('policy', () => {
    describe('when it returns false', () => {
      it.each([
        ['findOne', (s: ReturnType<typeof setup>['service']) => s.findOne(1)],
        ['findMany', (s: ReturnType<typeof setup>['service']) => s.findMany()],
        ['createOne', (s: ReturnType<typeof setup>['service']) => s.createOne({ title: 'X' })],
        ['updateOne', (s: ReturnType<typeof setup>['service']) => s.updateOne(1, { title: 'X' })],
        ['patchOne', (s: ReturnType<typeof setup>['service']) => s.patchOne(1, { title: 'X' })],
        ['deleteOne', (s: ReturnType<typeof setup>['service']) => s.deleteOne(1)],
        ['restoreOne', (s: ReturnType<typeof setup>['service']) => s.restoreOne(4)],
        ['purgeOne', (s: ReturnType<typeof setup>['service']) => s.purgeOne(4)],
      ])('makes %s answer 403 SVC_FORBIDDEN and write nothing', async (operation, call) => {
        const { service, adapter } = setup({ config: { policy: () => false } });
        const before = JSON.stringify(adapter.rows);
        const error = await failure(call(service));
        expect(error).toMatchObject({ status: 403, code: 'SVC_FORBIDDEN', params: { operation, entity: 'Book' } });
        expect(JSON.stringify(adapter.rows)).toBe(before);
      });
    });

    describe('when it guards a single-row operation', () => {
      it('receives the pre-read row, the params, the body and the context', async () => {
        const policy = jest.fn((_args: PolicyArgs) => false);
        const { service } = setup({ config: { policy } });
        await failure(service.updateOne(1, { title: 'X' }, { context: { user: 'ann' } }));
        expect(policy).toHaveBeenCalledTimes(1);
        const args = policy.mock.calls[0]![0];
        expect(args).toMatchObject({ operation: 'updateOne', params: { id: 1 }, context: { user: 'ann' } });
        expect(args.entity).toMatchObject({ id: 1, title: 'Alpha', pages: 100 });
        expect(args.body).toMatchObject({ title: 'X' });
      });

      it('receives the pre-read row on findOne and deleteOne', async () => {
        const policy = jest.fn((_args: PolicyArgs) => false);
        const { service } = setup({ config: { policy } });
        await failure(service.findOne(3));
        await failure(service.deleteOne(2));
        expect(policy.mock.calls.map(([args]) => [args.operation, args.entity?.title])).toEqual([
          ['findOne', 'Gamma'],
          ['deleteOne', 'Beta'],
        ]);
      });
    });

    describe('when it is asynchronous and returns true', () => {
      it('lets the operation run', async () => {
        const { service } = setup({ config: { policy: async () => true } });
        await expect(service.findOne(1)).resolves.toMatchObject({ id: 1 });
      });
    });

    describe('when it returns a truthy value that is not true', () => {
      it('refuses', async () => {
        const { service } = setup({ config: { policy: () => 'yes' } });
        expect((await failure(service.findOne(1))).code).toBe('SVC_FORBIDDEN');
      });
    });

    describe('when an operation opts out with policy: false', () => {
      it('runs unrestricted while the others stay guarded', async () => {
        const { service } = setup({
          global: { policy: () => false },
          config: { operations: { findOne: { policy: false }, findMany: true } },
        });
        await expect(service.findOne(1)).resolves.toMatchObject({ id: 1 });
        expect((await failure(service.findMany())).code).toBe('SVC_FORBIDDEN');
      });
    });
  });

  describe('filter.apply', () => {
    const config = { filter: { apply: ({ context }: { context: Loose }) => ({ tenant: { eq: context.tenant } }) } };
    const asT1 = { context: { tenant: 't1' } };

    describe('when a row is outside the scope', () => {
      it.each([
        ['findOne', (s: ReturnType<typeof setup>['service']) => s.findOne(2, asT1)],
        ['updateOne', (s: ReturnType<typeof setup>['service']) => s.updateOne(2, { title: 'X' }, asT1)],
        ['patchOne', (s: ReturnType<typeof setup>['service']) => s.patchOne(2, { title: 'X' }, asT1)],
        ['deleteOne', (s: ReturnType<typeof setup>['service']) => s.deleteOne(2, asT1)],
      ])('makes %s answer 404, not 403, and write nothing', async (_operation, call) => {
        const { service, stored } = setup({ config });
        const error = await failure(call(service));
        expect(error).toMatchObject({ status: 404, code: 'SVC_NOT_FOUND' });
        expect(stored(2)).toMatchObject({ title: 'Beta', deletedAt: null });
      });
    });

    describe('when rows are listed', () => {
      it('reads only the rows inside the scope, ANDed with the client filter', async () => {
        const { service } = setup({ config });
        expect((await service.findMany({}, asT1)).items.map((item) => item.id)).toEqual([1, 3]);
        expect((await service.findMany({ filter: { pages: { gt: 100 } } }, asT1)).items.map((item) => item.id)).toEqual(
          [3],
        );
      });
    });

    describe('when a row is inside the scope', () => {
      it('serves it', async () => {
        const { service } = setup({ config });
        await expect(service.patchOne(1, { pages: 2 }, asT1)).resolves.toMatchObject({ id: 1, pages: 2 });
      });
    });
  });

  describe('operations map', () => {
    describe('when the global map disables an operation', () => {
      it('answers 405 SVC_OPERATION_DISABLED', async () => {
        const { service } = setup({ global: { operations: { deleteOne: false } } });
        expect(await failure(service.deleteOne(1))).toMatchObject({ status: 405, code: 'SVC_OPERATION_DISABLED' });
      });
    });

    describe('when the entity map names the operation the global map disables', () => {
      it('serves it', async () => {
        const { service } = setup({
          global: { operations: { deleteOne: false } },
          config: { operations: { deleteOne: true } },
        });
        await expect(service.deleteOne(1)).resolves.toBeUndefined();
      });
    });

    describe('when the entity map leaves an operation out', () => {
      it('does not serve it', async () => {
        const { service, stored } = setup({ config: { operations: { findOne: true } } });
        await failure(service.deleteOne(1));
        expect(stored(1)!.deletedAt).toBeNull();
      });
    });
  });

  describe('operation handlers', () => {
    describe('when a findOne handler is configured', () => {
      it('replaces the read and receives the coerced key and the entity adapter', async () => {
        const handler = jest.fn((_input: unknown, context: { repository?: unknown }) => ({
          id: 1,
          title: 'From handler',
          repository: context.repository !== undefined,
        }));
        const { service } = setup({ config: { operations: { findOne: { handler } } } });
        expect(await service.findOne('1')).toEqual({ id: 1, title: 'From handler' });
        expect(handler.mock.calls[0]![0]).toMatchObject({ id: 1, key: { id: 1 } });
      });
    });
  });

  describe('errors.exposeInternals', () => {
    function failingAdapterSetup(config: Loose = {}) {
      const built = setup({ config });
      jest
        .spyOn(built.adapter, 'findOne')
        .mockRejectedValue(Object.assign(new Error('connection reset by peer'), { code: 'ECONNRESET' }));
      return built;
    }

    describe('when it is off', () => {
      it('wraps an unexpected failure as SVC_INTERNAL without the mark', async () => {
        const { service } = failingAdapterSetup();
        const error = await failure(service.findOne(1));
        expect(error).toMatchObject({ status: 500, code: 'SVC_INTERNAL' });
        expect((error as unknown as Record<symbol, unknown>)[EXPOSE_INTERNALS]).toBeUndefined();
        const problem = toProblemDetails(error);
        expect(problem).not.toHaveProperty('internals');
        expect(JSON.stringify(problem)).not.toContain('connection reset');
      });
    });

    describe('when it is on at entity scope', () => {
      it('marks the exception, so a binding serves its internals', async () => {
        const { service } = failingAdapterSetup({ errors: { exposeInternals: true } });
        const error = await failure(service.findOne(1));
        expect((error as unknown as Record<symbol, unknown>)[EXPOSE_INTERNALS]).toBe(true);
        expect(toProblemDetails(error, { exposeInternals: true }).internals).toMatchObject({
          name: 'Error',
          message: 'connection reset by peer',
          code: 'ECONNRESET',
        });
      });
    });

    describe('when it is on per call', () => {
      it('marks the exception of that call', async () => {
        const { service } = failingAdapterSetup();
        const error = await failure(service.findOne(1, { settings: { errors: { exposeInternals: true } } }));
        expect((error as unknown as Record<symbol, unknown>)[EXPOSE_INTERNALS]).toBe(true);
      });
    });
  });
});

describe('toProblemDetails', () => {
  describe('when given an Svc exception with errors', () => {
    it('builds the RFC 9457 body with type, title, status, detail, code and errors', async () => {
      const { service } = setup();
      const error = await failure(service.findMany({ filter: { titel: { eq: 'x' } }, sort: 'nope' }));
      const problem = toProblemDetails(error, { instance: '/books', requestId: 'r-1' });
      expect(problem).toEqual({
        type: 'https://svc.dev/errors/svc-query-invalid',
        title: 'Invalid query',
        status: 400,
        detail: expect.stringContaining('2 problems'),
        instance: '/books',
        code: 'SVC_QUERY_INVALID',
        entity: 'Book',
        errors: [
          expect.objectContaining({ param: 'filter[titel]', code: 'field_not_filterable' }),
          expect.objectContaining({ param: 'sort', code: 'field_not_sortable' }),
        ],
        requestId: 'r-1',
      });
      expect(PROBLEM_CONTENT_TYPE).toBe('application/problem+json');
    });
  });

  describe('when given an exception with message params', () => {
    it('carries the params and leaves errors out', async () => {
      const { service } = setup();
      const problem = toProblemDetails(await failure(service.findOne(99)));
      expect(problem).toMatchObject({ status: 404, code: 'SVC_NOT_FOUND', params: { entity: 'Book', id: 99 } });
      expect(problem).not.toHaveProperty('errors');
      expect(problem).not.toHaveProperty('internals');
    });
  });

  describe('when given anything that is not an Svc exception', () => {
    it('answers SVC_INTERNAL with the catalog detail and no internals', () => {
      const problem = toProblemDetails(new TypeError('secret stack detail'));
      expect(problem).toEqual({
        type: 'https://svc.dev/errors/svc-internal',
        title: 'Internal error',
        status: 500,
        detail: 'An unexpected error occurred; retry later.',
        code: 'SVC_INTERNAL',
      });
    });

    it('serves the cause as internals only with exposeInternals', () => {
      expect(toProblemDetails('boom', { exposeInternals: true }).internals).toBe('boom');
      expect(toProblemDetails('boom')).not.toHaveProperty('internals');
    });
  });
});
