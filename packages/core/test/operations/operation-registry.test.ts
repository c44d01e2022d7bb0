/**
 * The operation registry: one definition per standard operation, and the description every surface renders from it
 * (route, what the call takes and answers, conditional headers, wording, hints).
 */
import { createSvc, type EntityConfig, type OperationSettingsById } from '@svc/core';
import { pluralOf, STANDARD_OPERATIONS } from '@svc/core/spi';
import { createOne } from '../../src/operations/definitions/create-one';
import { deleteOne } from '../../src/operations/definitions/delete-one';
import { findMany } from '../../src/operations/definitions/find-many';
import { findOne } from '../../src/operations/definitions/find-one';
import { patchOne } from '../../src/operations/definitions/patch-one';
import { purgeOne } from '../../src/operations/definitions/purge-one';
import { restoreOne } from '../../src/operations/definitions/restore-one';
import { updateOne } from '../../src/operations/definitions/update-one';
import { createMany } from '../../src/operations/definitions/create-many';
import { updateMany } from '../../src/operations/definitions/update-many';
import { deleteMany } from '../../src/operations/definitions/delete-many';
import { MemoryRepositoryAdapter } from '../support/memory-adapter';
import { BOOK_METADATA } from '../support/fixtures';

function describeBooks(config: Record<string, unknown> = {}) {
  const adapter = new MemoryRepositoryAdapter(BOOK_METADATA, []);
  return createSvc({})
    .createCrud(BOOK_METADATA.target, config as EntityConfig, { adapter })
    .describe();
}

describe('pluralOf', () => {
  it.each([
    ['Book', 'Books'],
    ['Category', 'Categories'],
    ['Key', 'Keys'],
    ['Box', 'Boxes'],
    ['Address', 'Addresses'],
    ['Match', 'Matches'],
  ])('%s -> %s', (word, plural) => {
    expect(pluralOf(word)).toBe(plural);
  });
});

describe('the operation registry', () => {
  it('lists each standard operation once, by a unique id and a unique route', () => {
    const ids = STANDARD_OPERATIONS.map((definition) => definition.id);
    expect(new Set(ids).size).toBe(ids.length);
    const routes = STANDARD_OPERATIONS.map(({ route }) => `${route.method} ${route.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it('gives every write an event and every read none', () => {
    for (const definition of STANDARD_OPERATIONS) {
      expect([definition.id, definition.event !== undefined]).toEqual([definition.id, definition.kind === 'write']);
    }
  });

  it('takes a body only on writes, list or item queries only on reads, and a filter alone only on batch writes', () => {
    for (const { id, kind, takes, answers } of STANDARD_OPERATIONS) {
      if (takes.body !== 'none') expect([id, kind]).toEqual([id, 'write']);
      if (takes.query === 'list' || takes.query === 'item') expect([id, kind]).toEqual([id, 'read']);
      if (takes.query === 'filter' || takes.items) expect([id, kind, answers]).toEqual([id, 'write', 'batch']);
    }
  });

  it('serves the batch writes only where the batch block turns them on', () => {
    const ids = (config: Record<string, unknown>) => describeBooks(config).operations.map((operation) => operation.id);
    expect(ids({})).not.toEqual(expect.arrayContaining(['createMany']));
    expect(ids({ batch: { create: true, delete: true } })).toEqual(
      expect.arrayContaining(['createMany', 'deleteMany']),
    );
    expect(ids({ batch: { create: true } })).not.toContain('updateMany');
    expect(ids({ operations: { findMany: true }, batch: { update: true } })).toEqual(['findMany', 'updateMany']);
  });

  it('sets the delete marker only on a delete that may be soft, and clears it only on a restore', () => {
    for (const { id, event, needsSoftDelete, deleteMarker } of STANDARD_OPERATIONS) {
      if (deleteMarker === 'sets') expect([id, event, needsSoftDelete]).toEqual([id, 'deleted', false]);
      if (deleteMarker === 'clears') expect([id, event]).toEqual([id, 'restored']);
    }
    const marking = STANDARD_OPERATIONS.filter(({ deleteMarker }) => deleteMarker !== 'none');
    expect(marking.map(({ event }) => event).sort()).toEqual(['deleted', 'deleted', 'restored']);
  });

  it('lets only the settings keys an operation reads be set on it', () => {
    for (const { id, kind, settings } of STANDARD_OPERATIONS) {
      expect([id, settings.includes('realtime')]).toEqual([id, kind === 'write']);
      expect(settings).toContain('errors');
    }
  });
});

/** True when the definition's settings keys are exactly the keys its config type takes (a compile error otherwise). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type KeysOf<D extends { readonly settings: readonly string[] }> = D['settings'][number];

describe('the settings keys of each definition', () => {
  it('are the keys its config type takes', () => {
    const inStep: [
      Same<KeysOf<typeof findMany>, keyof OperationSettingsById['findMany']>,
      Same<KeysOf<typeof findOne>, keyof OperationSettingsById['findOne']>,
      Same<KeysOf<typeof createOne>, keyof OperationSettingsById['createOne']>,
      Same<KeysOf<typeof updateOne>, keyof OperationSettingsById['updateOne']>,
      Same<KeysOf<typeof patchOne>, keyof OperationSettingsById['patchOne']>,
      Same<KeysOf<typeof deleteOne>, keyof OperationSettingsById['deleteOne']>,
      Same<KeysOf<typeof restoreOne>, keyof OperationSettingsById['restoreOne']>,
      Same<KeysOf<typeof purgeOne>, keyof OperationSettingsById['purgeOne']>,
      Same<KeysOf<typeof createMany>, keyof OperationSettingsById['createMany']>,
      Same<KeysOf<typeof updateMany>, keyof OperationSettingsById['updateMany']>,
      Same<KeysOf<typeof deleteMany>, keyof OperationSettingsById['deleteMany']>,
    ] = [true, true, true, true, true, true, true, true, true, true, true];
    expect(inStep.every(Boolean)).toBe(true);
  });
});

describe('the description of each operation', () => {
  const books = describeBooks();
  const operation = (id: string) => books.operations.find((candidate) => candidate.id === id)!;

  it('words a summary per standard operation, with the right article', () => {
    expect(operation('findMany').summary).toBe('List Books');
    expect(operation('createOne').summary).toBe('Create a Book');
    expect(operation('deleteOne').wording).toEqual({
      title: 'Delete Book',
      sentence: 'Delete the Book with id id (a soft delete: restore brings it back).',
      done: 'deleted',
    });
  });

  it('says what each call takes, answers and checks', () => {
    expect(operation('findOne')).toMatchObject({
      takesId: true,
      query: 'item',
      answers: 'item',
      conditional: { ifNoneMatch: true, ifMatch: 'none' },
    });
    expect(operation('createOne')).toMatchObject({ takesId: false, body: 'create', event: 'created' });
    expect(operation('patchOne').conditional).toEqual({ ifNoneMatch: false, ifMatch: 'checked' });
    expect(operation('deleteOne')).toMatchObject({ answers: 'none', hints: { destructive: true, readOnly: false } });
  });

  it('reads a custom id as words, and lets meta.summary win', () => {
    const handler = async () => ({});
    const described = describeBooks({
      operations: {
        findMany: { meta: { summary: 'All books' } },
        publishOne: { handler },
        shortMany: { handler, kind: 'read', cardinality: 'many' },
      },
    });
    const summary = (id: string) => described.operations.find((candidate) => candidate.id === id)?.summary;
    expect(summary('findMany')).toBe('All books');
    expect(summary('publishOne')).toBe('Publish one Book');
    expect(summary('shortMany')).toBe('Short many Books');
  });
});
