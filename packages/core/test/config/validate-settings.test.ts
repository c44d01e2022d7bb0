import { createSvc, type EntityConfig, type GlobalSettings, type SvcOptions, type SvcService } from '@svc/core';
import { MemoryRepositoryAdapter } from '../support/memory-adapter';
import { Book, BOOK_METADATA } from '../support/fixtures';
import { configErrorOf, expectConfigError } from '../support/expect-config-error';

/** Loose configs: these tests feed values the types refuse, as JavaScript callers and JSON files can. */
type Loose = Record<string, unknown>;

function entity(config: Loose): SvcService {
  return createSvc().createCrud(Book, config as EntityConfig, { adapter: new MemoryRepositoryAdapter(BOOK_METADATA) });
}

function global(options: Loose) {
  return createSvc(options as SvcOptions);
}

describe('settings validation', () => {
  describe('when pagination.defaultLimit is not a positive integer', () => {
    it.each([0, -1, 1.5, 'x', null])('rejects %p at entity scope naming entity and key path', (value) => {
      expectConfigError(() => entity({ pagination: { defaultLimit: value } }), {
        entity: 'Book',
        path: 'pagination.defaultLimit',
        mentions: ['positive integer'],
      });
    });

    it.each([0, -1, 1.5, 'x'])('rejects %p at global scope naming the key path', (value) => {
      expectConfigError(() => global({ pagination: { defaultLimit: value } }), { path: 'pagination.defaultLimit' });
    });

    it('rejects it at operation scope naming the operation in the key path', () => {
      expectConfigError(() => entity({ operations: { findMany: { pagination: { maxLimit: 0 } } } }), {
        entity: 'Book',
        path: 'operations.findMany.pagination.maxLimit',
        mentions: ['findMany'],
      });
    });
  });

  describe('when a value has the wrong type', () => {
    it.each<[string, Loose, string]>([
      ['pagination.count', { pagination: { count: 'yes' } }, 'true or false'],
      ['pagination.strategy', { pagination: { strategy: '' } }, 'non-empty string'],
      ['pagination.since.field', { pagination: { since: { field: 3 } } }, 'non-empty string'],
      ['errors.exposeInternals', { errors: { exposeInternals: 1 } }, 'true or false'],
      ['cache.etag', { cache: { etag: 'on' } }, 'true or false'],
      ['delete.strategy', { delete: { strategy: 'sofft' } }, "Did you mean 'soft'?"],
      ['delete.field', { delete: { field: '' } }, 'non-empty string'],
      ['realtime.events', { realtime: { events: { create: true } } }, "Did you mean 'created'?"],
      ['realtime.subscribableFields', { realtime: { subscribableFields: 'title' } }, 'array of field names'],
      ['realtime.onPublishError', { realtime: { onPublishError: 'log' } }, 'function'],
      ['pagination', { pagination: 10 }, 'must be an object'],
      ['cache', { cache: true }, 'an object or false'],
    ])('rejects a bad %s', (path, config, mention) => {
      expectConfigError(() => entity(config), { entity: 'Book', path, mentions: [mention] });
    });
  });

  describe('when cache.ttl is 0', () => {
    it('is rejected with a message saying 0 is not allowed', () => {
      expectConfigError(() => entity({ cache: { ttl: 0 } }), {
        entity: 'Book',
        path: 'cache.ttl',
        mentions: ['0 is not allowed'],
      });
    });

    it('is rejected at global scope too', () => {
      expectConfigError(() => global({ cache: { ttl: 0 } }), { path: 'cache.ttl', mentions: ['0 is not allowed'] });
    });

    it('is rejected at operation scope naming the operation', () => {
      expectConfigError(() => entity({ operations: { findOne: { cache: { ttl: 0 } } } }), {
        path: 'operations.findOne.cache.ttl',
        mentions: ['0 is not allowed'],
      });
    });
  });

  describe('when cache.ttl is otherwise out of range', () => {
    it.each([-5, Number.NaN, Number.POSITIVE_INFINITY, '60'])('rejects %p', (ttl) => {
      expectConfigError(() => entity({ cache: { ttl } }), {
        path: 'cache.ttl',
        mentions: ['positive number of seconds'],
      });
    });

    it('accepts false', () => {
      expect(() => entity({ cache: { ttl: false } })).not.toThrow();
    });

    it.each([60, 0.5])('accepts %p', (ttl) => {
      expect(() => entity({ cache: { ttl } })).not.toThrow();
    });
  });

  describe('when a top-level key is misspelt', () => {
    it("suggests 'pagination' for 'paginaton' at entity scope", () => {
      expectConfigError(() => entity({ paginaton: { defaultLimit: 5 } }), {
        entity: 'Book',
        path: 'paginaton',
        mentions: ["Did you mean 'pagination'?"],
      });
    });

    it("suggests 'pagination' for 'paginaton' at global scope", () => {
      expectConfigError(() => global({ paginaton: {} }), {
        path: 'paginaton',
        mentions: ["Did you mean 'pagination'?"],
      });
    });

    it("suggests 'pagination' for 'paginaton' at operation scope", () => {
      expectConfigError(() => entity({ operations: { findMany: { paginaton: {} } } }), {
        path: 'operations.findMany.paginaton',
        mentions: ["Did you mean 'pagination'?"],
      });
    });
  });

  describe('when a nested key is misspelt', () => {
    it("suggests 'maxLimit' for 'pagination.maxLimt'", () => {
      expectConfigError(() => entity({ pagination: { maxLimt: 5 } }), {
        entity: 'Book',
        path: 'pagination.maxLimt',
        mentions: ["Did you mean 'maxLimit'?"],
      });
    });

    it("suggests 'etag' for 'cache.etga'", () => {
      expectConfigError(() => entity({ cache: { etga: true } }), {
        path: 'cache.etga',
        mentions: ["Did you mean 'etag'?"],
      });
    });

    it('gives no suggestion when nothing is close', () => {
      const error = expectConfigError(() => entity({ pagination: { zzzzzzzz: 5 } }), { path: 'pagination.zzzzzzzz' });
      expect(error.message).not.toContain('Did you mean');
    });
  });

  describe('when an operation scope sets a key its stages do not read', () => {
    it.each([
      ['findOne', 'pagination'],
      ['createOne', 'pagination'],
      ['deleteOne', 'pagination'],
      ['findMany', 'realtime'],
      ['findOne', 'realtime'],
      ['createOne', 'delete'],
      ['updateOne', 'delete'],
      ['patchOne', 'delete'],
    ])('rejects %s.%s naming the entity, the key path and the operation', (operation, key) => {
      const value = key === 'pagination' ? { defaultLimit: 5 } : key === 'realtime' ? {} : false;
      expectConfigError(() => entity({ operations: { [operation]: { [key]: value } } }), {
        entity: 'Book',
        path: `operations.${operation}.${key}`,
        mentions: [`is not read by ${operation}`],
      });
    });
  });

  describe('when an operation scope sets a key its stages read', () => {
    it.each([
      ['findMany', { pagination: { defaultLimit: 5 } }],
      ['findMany', { delete: false }],
      ['findOne', { delete: false }],
      ['createOne', { realtime: false }],
      ['updateOne', { realtime: false }],
      ['patchOne', { realtime: false }],
      ['deleteOne', { realtime: false, delete: { strategy: 'soft' } }],
      ['restoreOne', { delete: {} }],
      ['purgeOne', { delete: {} }],
    ])('accepts %s with %p', (operation, settings) => {
      expect(() => entity({ operations: { [operation]: settings } })).not.toThrow();
    });

    it.each(['createOne', 'findOne', 'findMany', 'updateOne', 'patchOne', 'deleteOne', 'restoreOne', 'purgeOne'])(
      'accepts cache and errors on %s',
      (operation) => {
        expect(() =>
          entity({ operations: { [operation]: { cache: { etag: false }, errors: { exposeInternals: true } } } }),
        ).not.toThrow();
      },
    );
  });

  describe('when identifier is set at operation scope', () => {
    it('is rejected naming the operation and the key path', () => {
      expectConfigError(() => entity({ operations: { findOne: { identifier: { field: 'title' } } } }), {
        entity: 'Book',
        path: 'operations.findOne.identifier',
        mentions: ['global and entity scope only'],
      });
    });
  });

  describe('when cache.dependsOn is not an entity-scope list of classes', () => {
    it.each([[['Book']], ['Book'], [[null]]])('rejects %p at entity scope', (value) => {
      expectConfigError(() => entity({ cache: { dependsOn: value } }), {
        entity: 'Book',
        path: 'cache.dependsOn',
        mentions: ['array of entity classes'],
      });
    });

    it('rejects it at global and operation scope, where it says nothing of one entity', () => {
      expectConfigError(() => global({ cache: { ttl: 5, dependsOn: [] } }), {
        path: 'cache.dependsOn',
        mentions: ['entity scope only'],
      });
      expectConfigError(() => entity({ operations: { findMany: { cache: { dependsOn: [] } } } }), {
        entity: 'Book',
        path: 'operations.findMany.cache.dependsOn',
        mentions: ['entity scope only'],
      });
    });
  });

  describe('when identifier is set per call', () => {
    it('is rejected with a ConfigurationException naming the entity and the key', async () => {
      const service = entity({});
      await service.engine.execute({ operation: 'findMany', settings: { identifier: { field: 'title' } } }).then(
        () => {
          throw new Error('expected a rejection');
        },
        (error: unknown) => {
          const exception = configErrorOf(() => {
            throw error;
          });
          expect(exception.entity).toBe('Book');
          expect(exception.path).toBe('findMany call settings.identifier');
          expect(exception.message).toContain('global and entity scope only');
        },
      );
    });
    // prefix (src/service/svc-engine.ts:26 passes { scope: 'call', entity, operation } only), so the message reads
    // "Book: identifier: is allowed at ..." without "findMany". Configuration errors name the operation.
    it('names the operation the call was for', async () => {
      const service = entity({});
      await expect(
        service.engine.execute({ operation: 'findMany', settings: { identifier: { field: 'title' } } }),
      ).rejects.toThrow('findMany');
    });
  });

  describe('when a per-call settings key is one the operation does not read', () => {
    it('rejects pagination on findOne naming the operation', async () => {
      const service = entity({});
      await expect(service.findOne(1, { settings: { pagination: { defaultLimit: 2 } } })).rejects.toMatchObject({
        code: 'SVC_CONFIG_INVALID',
        message: expect.stringContaining('is not read by findOne'),
      });
    });
  });

  describe('when the global operations map is malformed', () => {
    it('rejects an unknown operation id with a suggestion', () => {
      expectConfigError(() => global({ operations: { findAll: false } } satisfies Loose), {
        path: 'operations.findAll',
        mentions: ['is not a standard operation'],
      });
    });

    it('rejects a non-boolean value', () => {
      expectConfigError(() => global({ operations: { findOne: {} } }), {
        path: 'operations.findOne',
        mentions: ['true or false'],
      });
    });
  });

  describe('when createSvc gets an unknown option', () => {
    it('names it with a suggestion', () => {
      expectConfigError(() => global({ polcy: () => true }), { path: 'polcy', mentions: ["Did you mean 'policy'?"] });
    });
  });

  describe('when every setting is valid', () => {
    it('accepts the whole settings surface at global scope', () => {
      const options: GlobalSettings = {
        pagination: { defaultLimit: 10, maxLimit: 50, strategy: 'offset', count: false, since: { field: 'createdAt' } },
        errors: { exposeInternals: true },
        cache: { ttl: 30, etag: false },
        delete: { field: 'deletedAt', strategy: 'auto' },
        realtime: {
          events: { created: true, deleted: false },
          subscribableFields: { exclude: ['tenant'] },
          onPublishError: () => undefined,
        },
        identifier: { field: 'code' },
        operations: { purgeOne: false },
      };
      expect(() => createSvc(options)).not.toThrow();
    });
  });
});
