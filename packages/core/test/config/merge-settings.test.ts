import { createSvc, type SvcSettings } from '@svc/core';
import { BUILT_IN_SETTINGS } from '../../src/config/built-in-settings';
import { mergeSettings, mergeSettingsChain } from '../../src/config/merge-settings';
import { MemoryRepositoryAdapter } from '../support/memory-adapter';
import { Book, BOOK_METADATA } from '../support/fixtures';

describe('mergeSettingsChain', () => {
  describe('when no scope sets anything', () => {
    it('yields the built-in defaults', () => {
      const settings = mergeSettingsChain(BUILT_IN_SETTINGS, [undefined, {}, undefined]);
      expect(settings).toEqual({
        pagination: { defaultLimit: 20, maxLimit: 100, strategy: 'offset', count: true, since: { field: 'updatedAt' } },
        errors: { exposeInternals: false },
        cache: { ttl: false, etag: true },
        delete: { field: 'deletedAt', strategy: 'auto' },
        realtime: false,
      });
    });
  });

  describe('when each link of the chain sets one field', () => {
    const global: SvcSettings = { pagination: { defaultLimit: 10 } };
    const entity: SvcSettings = { pagination: { maxLimit: 50 } };
    const operation: SvcSettings = { pagination: { count: false } };
    const call: SvcSettings = { pagination: { strategy: 'page' } };

    it('lets the global scope override a built-in default and keep the others', () => {
      const settings = mergeSettingsChain(BUILT_IN_SETTINGS, [global]);
      expect(settings.pagination).toEqual({ ...BUILT_IN_SETTINGS.pagination, defaultLimit: 10 });
    });

    it('lets the entity scope override a field and keep what the global scope set', () => {
      const settings = mergeSettingsChain(BUILT_IN_SETTINGS, [global, entity]);
      expect(settings.pagination).toMatchObject({ defaultLimit: 10, maxLimit: 50, count: true });
    });

    it('lets the operation scope override a field and keep what the entity and global scopes set', () => {
      const settings = mergeSettingsChain(BUILT_IN_SETTINGS, [global, entity, operation]);
      expect(settings.pagination).toMatchObject({ defaultLimit: 10, maxLimit: 50, count: false, strategy: 'offset' });
    });

    it('lets the per-call scope override a field and keep every earlier one', () => {
      const settings = mergeSettingsChain(BUILT_IN_SETTINGS, [global, entity, operation, call]);
      expect(settings.pagination).toEqual({
        defaultLimit: 10,
        maxLimit: 50,
        count: false,
        strategy: 'page',
        since: { field: 'updatedAt' },
      });
    });
  });

  describe('when two scopes set the same field', () => {
    it('lets the later scope win', () => {
      const settings = mergeSettingsChain(BUILT_IN_SETTINGS, [
        { pagination: { defaultLimit: 10 } },
        { pagination: { defaultLimit: 30 } },
        { pagination: { defaultLimit: 5 } },
      ]);
      expect(settings.pagination.defaultLimit).toBe(5);
    });

    it('treats an explicit undefined as not set', () => {
      const settings = mergeSettingsChain(BUILT_IN_SETTINGS, [
        { pagination: { defaultLimit: 10 } },
        { pagination: { defaultLimit: undefined } },
      ]);
      expect(settings.pagination.defaultLimit).toBe(10);
    });

    it('merges pagination.since field by field', () => {
      const settings = mergeSettingsChain(BUILT_IN_SETTINGS, [
        { pagination: { since: { field: 'editedAt' } } },
        { pagination: { count: false } },
      ]);
      expect(settings.pagination.since).toEqual({ field: 'editedAt' });
    });
  });

  describe('when cache is false at a scope', () => {
    it('turns both halves off at that scope', () => {
      const settings = mergeSettingsChain(BUILT_IN_SETTINGS, [{ cache: { ttl: 60, etag: true } }, { cache: false }]);
      expect(settings.cache).toBe(false);
    });

    it('is turned back on by an object at a later scope, from the cache defaults', () => {
      const settings = mergeSettingsChain(BUILT_IN_SETTINGS, [{ cache: { ttl: 60 } }, { cache: false }, { cache: {} }]);
      expect(settings.cache).toEqual({ ttl: false, etag: true });
    });
  });

  describe('when cache.ttl is false at a scope', () => {
    it('turns an inherited ttl off but keeps the inherited etag', () => {
      const settings = mergeSettingsChain(BUILT_IN_SETTINGS, [
        { cache: { ttl: 60, etag: false } },
        { cache: { ttl: false } },
      ]);
      expect(settings.cache).toEqual({ ttl: false, etag: false });
    });

    it('keeps etag on when it was on', () => {
      const settings = mergeSettingsChain(BUILT_IN_SETTINGS, [{ cache: { ttl: 60 } }, { cache: { ttl: false } }]);
      expect(settings.cache).toEqual({ ttl: false, etag: true });
    });
  });

  describe('when delete is false at a scope', () => {
    it('turns soft delete off at that scope', () => {
      const settings = mergeSettingsChain(BUILT_IN_SETTINGS, [{ delete: { field: 'removedAt' } }, { delete: false }]);
      expect(settings.delete).toBe(false);
    });

    it('is turned back on by an object at a later scope, from the delete defaults', () => {
      const settings = mergeSettingsChain(BUILT_IN_SETTINGS, [{ delete: false }, { delete: { strategy: 'soft' } }]);
      expect(settings.delete).toEqual({ field: 'deletedAt', strategy: 'soft' });
    });
  });

  describe('when realtime is false at a scope', () => {
    it('turns the subtree off at that scope', () => {
      const settings = mergeSettingsChain(BUILT_IN_SETTINGS, [
        { realtime: { events: { created: false } } },
        { realtime: false },
      ]);
      expect(settings.realtime).toBe(false);
    });

    it('is turned back on by any object at a later scope', () => {
      const settings = mergeSettingsChain(BUILT_IN_SETTINGS, [{ realtime: false }, { realtime: {} }]);
      expect(settings.realtime).toEqual({ events: {} });
    });

    it('merges realtime.events id by id across scopes', () => {
      const settings = mergeSettingsChain(BUILT_IN_SETTINGS, [
        { realtime: { events: { created: false, updated: false } } },
        { realtime: { events: { updated: true } } },
      ]);
      expect(settings.realtime).toEqual({ events: { created: false, updated: true } });
    });
  });

  describe('when identifier is set', () => {
    it('carries the identifier through later scopes that do not set it', () => {
      const settings = mergeSettingsChain(BUILT_IN_SETTINGS, [
        { identifier: { field: 'slug' } },
        { pagination: { defaultLimit: 5 } },
      ]);
      expect(settings.identifier).toEqual({ field: 'slug' });
    });
  });
});

describe('mergeSettings', () => {
  describe('when it merges a scope', () => {
    it('returns a deeply frozen value', () => {
      const settings = mergeSettings(BUILT_IN_SETTINGS, {
        pagination: { defaultLimit: 5 },
        cache: { ttl: 10 },
        realtime: { events: { created: true } },
      });
      expect(Object.isFrozen(settings)).toBe(true);
      expect(Object.isFrozen(settings.pagination)).toBe(true);
      expect(Object.isFrozen(settings.pagination.since)).toBe(true);
      expect(Object.isFrozen(settings.cache)).toBe(true);
      expect(Object.isFrozen(settings.realtime)).toBe(true);
      expect(Object.isFrozen((settings.realtime as { events: object }).events)).toBe(true);
    });

    it('leaves the base unchanged', () => {
      mergeSettings(BUILT_IN_SETTINGS, { pagination: { defaultLimit: 5 } });
      expect(BUILT_IN_SETTINGS.pagination.defaultLimit).toBe(20);
    });

    it('returns the base itself when there is no scope', () => {
      expect(mergeSettings(BUILT_IN_SETTINGS, undefined)).toBe(BUILT_IN_SETTINGS);
    });
  });
});

describe('createSvc().createCrud', () => {
  describe('when global, entity and operation scopes each set a field', () => {
    it('resolves each operation with the chain built-in → global → entity → operation', () => {
      const service = createSvc({ pagination: { defaultLimit: 10 }, cache: { etag: false } }).createCrud(
        Book,
        {
          pagination: { maxLimit: 50 },
          operations: { findMany: { pagination: { count: false } }, findOne: { cache: { etag: true } } },
        },
        { adapter: new MemoryRepositoryAdapter(BOOK_METADATA) },
      );
      const operations = service.engine.entity.operations;
      expect(operations.get('findMany')!.settings.pagination).toMatchObject({
        defaultLimit: 10,
        maxLimit: 50,
        count: false,
      });
      expect(operations.get('findMany')!.settings.cache).toEqual({ ttl: false, etag: false });
      expect(operations.get('findOne')!.settings.cache).toEqual({ ttl: false, etag: true });
      expect(Object.isFrozen(operations.get('findMany')!.settings)).toBe(true);
    });
  });

  describe('when a scope passes its own objects', () => {
    it("freezes a copy and leaves the caller's objects as they were", () => {
      const fields = ['title'];
      const merged = mergeSettings(BUILT_IN_SETTINGS, { realtime: { subscribableFields: fields } });
      expect(Object.isFrozen(fields)).toBe(false);
      expect(merged.realtime && merged.realtime.subscribableFields).toEqual(['title']);
      expect(Object.isFrozen(merged.realtime && merged.realtime.subscribableFields)).toBe(true);
    });
  });
});
