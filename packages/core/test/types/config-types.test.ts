/**
 * Type-level tests: what configs compile. Each `@ts-expect-error` must sit on a real compile error, so
 * `tsc -p tsconfig.json --noEmit` fails if a key the operation does not read ever becomes accepted.
 */
import type { EntityConfig, GlobalSettings, StandardOperationConfig, SvcOptions } from '@svc/core';

describe('EntityConfig types', () => {
  describe('when pagination is set per operation', () => {
    it('compiles under operations.findMany only', () => {
      const allowed: EntityConfig = { operations: { findMany: { pagination: { defaultLimit: 5, maxLimit: 50 } } } };
      const onFindOne: EntityConfig = {
        operations: {
          findOne: {
            // @ts-expect-error pagination is read by findMany alone
            pagination: { defaultLimit: 5 },
          },
        },
      };
      const onCreateOne: EntityConfig = {
        operations: {
          createOne: {
            // @ts-expect-error pagination is read by findMany alone
            pagination: { defaultLimit: 5 },
          },
        },
      };
      expect([allowed, onFindOne, onCreateOne]).toHaveLength(3);
    });
  });

  describe('when realtime is set per operation', () => {
    it('compiles on the writes but not on findMany', () => {
      const onCreateOne: EntityConfig = { operations: { createOne: { realtime: { events: { created: true } } } } };
      const onWrites: EntityConfig = {
        operations: { updateOne: { realtime: false }, patchOne: { realtime: {} }, deleteOne: { realtime: {} } },
      };
      const onFindMany: EntityConfig = {
        operations: {
          findMany: {
            // @ts-expect-error realtime is read by the writes alone
            realtime: { events: { created: true } },
          },
        },
      };
      expect([onCreateOne, onWrites, onFindMany]).toHaveLength(3);
    });
  });

  describe('when delete is set per operation', () => {
    it('compiles on deleteOne and findOne but not on createOne', () => {
      const onDeleteOne: EntityConfig = { operations: { deleteOne: { delete: { strategy: 'soft' } } } };
      const onFindOne: EntityConfig = { operations: { findOne: { delete: false } } };
      const onCreateOne: EntityConfig = {
        operations: {
          createOne: {
            // @ts-expect-error delete is read by the reads and the delete family alone
            delete: false,
          },
        },
      };
      expect([onDeleteOne, onFindOne, onCreateOne]).toHaveLength(3);
    });
  });

  describe('when cache and errors are set per operation', () => {
    it('compiles on every operation', () => {
      const everywhere: EntityConfig = {
        operations: {
          createOne: { cache: false, errors: { exposeInternals: true } },
          findOne: { cache: { etag: false } },
          findMany: { cache: { ttl: 30 } },
          purgeOne: { errors: { exposeInternals: false } },
        },
      };
      expect(everywhere.operations).toBeDefined();
    });
  });

  describe('when identifier is set per operation', () => {
    it('does not compile under any operation', () => {
      const findOne: StandardOperationConfig<'findOne'> = {
        // @ts-expect-error identifier is global and entity scope only
        identifier: { field: 'slug' },
      };
      const findMany: StandardOperationConfig<'findMany'> = {
        // @ts-expect-error identifier is global and entity scope only
        identifier: { field: 'slug' },
      };
      const updateOne: StandardOperationConfig<'updateOne'> = {
        // @ts-expect-error identifier is global and entity scope only
        identifier: { field: 'slug' },
      };
      const inMap: EntityConfig = {
        operations: {
          deleteOne: {
            // @ts-expect-error identifier is global and entity scope only
            identifier: { field: 'slug' },
          },
        },
      };
      const atEntity: EntityConfig = { identifier: { field: 'slug' } };
      expect([findOne, findMany, updateOne, inMap, atEntity]).toHaveLength(5);
    });
  });

  describe('when the entity config names an unknown key', () => {
    it('does not compile', () => {
      const misspelt: EntityConfig = {
        // @ts-expect-error 'paginaton' is not a config key
        paginaton: { defaultLimit: 5 },
      };
      const unknownOperation: EntityConfig = {
        operations: {
          // @ts-expect-error a custom operation's kind is read or write
          publishOne: { kind: 'delete' },
        },
      };
      const misspeltNested: EntityConfig = {
        // @ts-expect-error 'maxLimt' is not a pagination key
        pagination: { maxLimt: 5 },
      };
      expect([misspelt, unknownOperation, misspeltNested]).toHaveLength(3);
    });
  });

  describe('when a value has the wrong type', () => {
    it('does not compile', () => {
      const badStrategy: EntityConfig = {
        // @ts-expect-error delete.strategy is 'auto' | 'soft' | 'hard'
        delete: { strategy: 'sometimes' },
      };
      const badOperation: EntityConfig = {
        operations: {
          // @ts-expect-error an operation is a boolean or a config object
          findOne: 'yes',
        },
      };
      expect([badStrategy, badOperation]).toHaveLength(2);
    });
  });
});

describe('GlobalSettings types', () => {
  describe('when the global operations map is set', () => {
    it('takes booleans only', () => {
      const booleans: GlobalSettings = { operations: { deleteOne: false, purgeOne: true } };
      const objects: SvcOptions = {
        operations: {
          // @ts-expect-error the global operations map is boolean only
          findOne: {},
        },
      };
      expect([booleans, objects]).toHaveLength(2);
    });
  });
});
