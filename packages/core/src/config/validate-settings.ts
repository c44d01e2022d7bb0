/** Bootstrap validation of settings objects: types, ranges, unknown keys (with a did-you-mean), scope rules. */
import { ConfigurationException } from '../errors/configuration-exception';
import { suggestion } from './did-you-mean';
import type { OperationFacts } from './operation-facts';

export type SettingsScope = 'global' | 'entity' | 'operation' | 'call';

export interface SettingsLocation {
  readonly scope: SettingsScope;
  readonly entity?: string;
  /** Key path prefix, for example `operations.findMany`. */
  readonly path?: string;
  /** The standard operation whose settings keys are the only ones allowed here. */
  readonly operation?: OperationFacts;
  /** How errors name the operation when it is not `operation` itself (a custom one following its rules). */
  readonly operationLabel?: string;
}

type Check = (value: unknown, path: string, fail: (message: string) => never) => void;

const positiveInteger: Check = (value, _path, fail) => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) fail('must be a positive integer.');
};
const boolean: Check = (value, _path, fail) => {
  if (typeof value !== 'boolean') fail('must be true or false.');
};
const nonEmptyString: Check = (value, _path, fail) => {
  if (typeof value !== 'string' || value.length === 0) fail('must be a non-empty string.');
};
const oneOf =
  (...allowed: string[]): Check =>
  (value, _path, fail) => {
    if (typeof value !== 'string' || !allowed.includes(value)) {
      fail(`must be one of ${allowed.map((v) => `'${v}'`).join(', ')}.${suggestion(String(value), allowed)}`);
    }
  };

interface ObjectShape {
  readonly keys: Readonly<Record<string, Check | ObjectShape>>;
  /** `false` is accepted in place of the object (turns the subtree off). */
  readonly falseable?: boolean;
}

const SHAPES: Readonly<Record<string, ObjectShape>> = {
  pagination: {
    keys: {
      defaultLimit: positiveInteger,
      maxLimit: positiveInteger,
      strategy: nonEmptyString,
      count: boolean,
      since: { keys: { field: nonEmptyString } },
    },
  },
  errors: {
    keys: {
      exposeInternals: boolean,
      format: (value, _path, fail) => {
        if (typeof value !== 'function') fail('must be a function (problem) => ({ status, body }) | undefined.');
      },
    },
  },
  cache: {
    falseable: true,
    keys: {
      ttl: (value, _path, fail) => {
        if (value === false) return;
        if (value === 0)
          fail(
            'must be a positive number of seconds; 0 is not allowed. Omit ttl or set it to false to turn the result cache off.',
          );
        if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
          fail('must be a positive number of seconds, or false.');
      },
      etag: boolean,
      dependsOn: (value, _path, fail) => {
        if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'function'))
          fail("must be an array of entity classes; [] when the computed values read the entity's own table only.");
      },
    },
  },
  delete: { falseable: true, keys: { field: nonEmptyString, strategy: oneOf('auto', 'soft', 'hard') } },
  realtime: {
    falseable: true,
    keys: {
      events: (value, path, fail) => {
        if (!isPlainObject(value)) fail('must be an object mapping event ids to booleans.');
        const ids = ['created', 'updated', 'patched', 'deleted', 'restored'];
        for (const [key, flag] of Object.entries(value as object)) {
          if (!ids.includes(key)) fail(`has unknown event '${key}'.${suggestion(key, ids)} (at ${path})`);
          if (typeof flag !== 'boolean') fail(`.${key} must be true or false.`);
        }
      },
      subscribableFields: (value, _path, fail) => {
        const list = isPlainObject(value) ? (value as { exclude?: unknown }).exclude : value;
        if (!Array.isArray(list) || list.some((v) => typeof v !== 'string'))
          fail('must be an array of field names or { exclude: [...] }.');
      },
      onPublishError: (value, _path, fail) => {
        if (typeof value !== 'function') fail('must be a function (error, transport, event).');
      },
    },
  },
  identifier: { keys: { field: nonEmptyString } },
};

/** Validates the settings keys of one scope object (other keys of that object are the caller's business). */
export function validateSettings(
  settings: Readonly<Record<string, unknown>>,
  location: SettingsLocation,
  settingsKeys: readonly string[] = Object.keys(SHAPES),
): void {
  for (const key of settingsKeys) {
    const value = settings[key];
    if (value === undefined) continue;
    const path = location.path ? `${location.path}.${key}` : key;
    if (key === 'identifier' && (location.scope === 'operation' || location.scope === 'call')) {
      fail(
        location,
        path,
        'is allowed at global and entity scope only. Move it to the entity config or SvcModule.forRoot.',
      );
    }
    if (key === 'cache' && isPlainObject(value) && value['dependsOn'] !== undefined && location.scope !== 'entity') {
      fail(
        location,
        `${path}.dependsOn`,
        "is allowed at entity scope only: it says where the entity's computed values come from. Move it to the entity config.",
      );
    }
    const allowed: readonly string[] | undefined = location.operation?.settings;
    if (allowed && !allowed.includes(key)) {
      fail(
        location,
        path,
        `is not read by ${location.operationLabel ?? location.operation!.id}; it takes only ${allowed.join(', ')}. Move it to the entity scope.`,
      );
    }
    const shape = SHAPES[key];
    if (shape) checkShape(shape, value, path, location);
  }
}

/** Keys that are settings, for callers that split a mixed object. */
export const SETTINGS_KEYS: readonly string[] = Object.keys(SHAPES);

/** Validates the global boolean `operations` map against the standard operations' ids. */
export function validateGlobalOperationsMap(
  value: unknown,
  location: SettingsLocation,
  standardIds: readonly string[],
): void {
  if (value === undefined) return;
  if (!isPlainObject(value)) fail(location, 'operations', 'must be a map from standard operation id to boolean.');
  for (const [id, flag] of Object.entries(value as object)) {
    if (!standardIds.includes(id)) {
      fail(location, `operations.${id}`, `is not a standard operation.${suggestion(id, standardIds)}`);
    }
    if (typeof flag !== 'boolean') fail(location, `operations.${id}`, 'must be true or false at global scope.');
  }
}

function checkShape(shape: ObjectShape, value: unknown, path: string, location: SettingsLocation): void {
  if (value === false && shape.falseable) return;
  if (!isPlainObject(value))
    fail(location, path, shape.falseable ? 'must be an object or false.' : 'must be an object.');
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const childPath = `${path}.${key}`;
    const check = shape.keys[key];
    if (!check) fail(location, childPath, `is not a known key.${suggestion(key, Object.keys(shape.keys))}`);
    if (child === undefined) continue;
    if (typeof check === 'function') check(child, childPath, (message) => fail(location, childPath, message));
    else checkShape(check, child, childPath, location);
  }
}

function fail(location: SettingsLocation, path: string, message: string): never {
  throw new ConfigurationException({ entity: location.entity, path, message });
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
