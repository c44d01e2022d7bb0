/** Every configuration problem stops the app at boot with a ConfigurationException naming entity, key path and cause. */
import type { EntityConfig, SvcOptions } from '@svc/core';
import { Author, BOOKSTORE_ENTITIES, Book, Edition, Note } from '../fixtures/bookstore-entities';
import { bootstrapFailure, svcController } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

interface Case {
  readonly name: string;
  readonly entity?: Function;
  readonly config?: EntityConfig;
  readonly svc?: SvcOptions;
  /** Fragments the message must contain. */
  readonly mentions: readonly string[];
}

const CASES: readonly Case[] = [
  {
    name: 'a non-integer pagination.defaultLimit',
    config: { pagination: { defaultLimit: 1.5 } },
    mentions: ['Book', 'pagination.defaultLimit', 'positive integer'],
  },
  { name: 'a zero pagination.maxLimit', config: { pagination: { maxLimit: 0 } }, mentions: ['pagination.maxLimit'] },
  { name: 'cache.ttl: 0', config: { cache: { ttl: 0 } }, mentions: ['cache.ttl', '0 is not allowed'] },
  {
    name: 'search: {} where select.fields hides every string column',
    config: { select: { fields: ['id', 'pages'] }, search: {} },
    mentions: ['Book', 'search.fields', 'names no field', 'select.fields serves'],
  },
  {
    name: 'an unknown settings key, with a did-you-mean',
    config: { paginaton: {} } as EntityConfig,
    mentions: ['paginaton', "Did you mean 'pagination'"],
  },
  {
    name: 'an unknown nested key',
    config: { pagination: { maxLimt: 5 } } as EntityConfig,
    mentions: ['pagination.maxLimt', "Did you mean 'maxLimit'"],
  },
  {
    name: 'an unknown delete.strategy',
    config: { delete: { strategy: 'sof' as 'soft' } },
    mentions: ['delete.strategy', "'soft'"],
  },
  {
    name: 'pagination under operations.findOne',
    config: { operations: { findOne: { pagination: { maxLimit: 5 } } as never } },
    mentions: ['operations.findOne.pagination', 'findOne'],
  },
  {
    name: 'realtime under operations.findMany',
    config: { operations: { findMany: { realtime: {} } as never } },
    mentions: ['operations.findMany.realtime'],
  },
  {
    name: 'delete under operations.createOne',
    config: { operations: { createOne: { delete: false } as never } },
    mentions: ['operations.createOne.delete'],
  },
  {
    name: 'identifier at operation scope',
    config: { operations: { findOne: { identifier: { field: 'title' } } as never } },
    mentions: ['operations.findOne.identifier', 'global and entity scope'],
  },
  {
    name: "delete.strategy 'soft' without the marker column",
    entity: Author,
    config: { delete: { strategy: 'soft' } },
    mentions: ['Author', 'delete.strategy', 'deletedAt'],
  },
  {
    name: 'restoreOne on a hard-delete entity',
    entity: Note,
    config: { operations: { findOne: true, restoreOne: true } },
    mentions: ['Note', 'operations.restoreOne', 'soft delete'],
  },
  {
    name: 'a custom operation with neither handler nor override',
    config: { operations: { publishBookOne: { kind: 'write' } } },
    mentions: ['operations.publishBookOne', 'neither a handler nor an @Override'],
  },
  {
    name: 'an id differing from a standard one only by case',
    config: { operations: { FindOne: true } as never },
    mentions: ['operations.FindOne', "'findOne'"],
  },
  {
    name: 'identifier on a composite key',
    entity: Edition,
    config: { identifier: { field: 'code' } },
    mentions: ['Edition', 'identifier.field', 'composite'],
  },
  {
    name: 'identifier naming an unknown field',
    config: { identifier: { field: 'titel' } },
    mentions: ['identifier.field', "Did you mean 'title'"],
  },
  {
    name: 'identifier naming a relation',
    config: { identifier: { field: 'author' } },
    mentions: ['identifier.field', 'relation'],
  },
  {
    name: 'filter.fields naming an unknown column',
    config: { filter: { fields: ['pagez'] } },
    mentions: ['filter.fields', "Did you mean 'pages'"],
  },
  {
    name: 'sort.default naming an unsortable field',
    config: { sort: { fields: ['title'], default: ['-pages'] } },
    mentions: ['sort.default', 'pages'],
  },
  {
    name: 'a route option that is not one',
    config: { operations: { findOne: { meta: { routes: { verb: 'GET' } } } } as never },
    mentions: ['operations.findOne.meta.routes.verb', 'not a route option'],
  },
  {
    name: 'realtimeEvent on a read',
    config: { operations: { lookOne: { kind: 'read', realtimeEvent: 'looked', handler: () => null } } },
    mentions: ['operations.lookOne.realtimeEvent', 'only on a write'],
  },
  {
    name: 'an unknown global option',
    svc: { paginaton: {} } as SvcOptions,
    mentions: ['paginaton', "Did you mean 'pagination'"],
  },
  {
    name: 'a global operations map with a non-boolean',
    svc: { operations: { findOne: {} } } as unknown as SvcOptions,
    mentions: ['operations.findOne', 'true or false'],
  },
];

describe.each(TEST_DATABASES)('bootstrap errors on $name', (db) => {
  it.each(CASES)('refuses $name', async ({ entity, config, svc, mentions }) => {
    const error = await bootstrapFailure({
      db,
      suite: 'e2e_bootstrap',
      entities: BOOKSTORE_ENTITIES,
      controllers: [svcController('things', entity ?? Book, config ?? {})],
      svc,
    });
    expect(error.code).toBe('SVC_CONFIG_INVALID');
    for (const fragment of mentions) expect(error.message).toContain(fragment);
  });
});
