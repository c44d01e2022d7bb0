/** Bootstrap checks of an entity config's keys: unknown keys (with a did-you-mean) and keys this version lacks. */
import { ConfigurationException } from '../errors/configuration-exception';
import { suggestion } from '../config/did-you-mean';
import { isStandardSchema } from '../schema/body-validators';
import { checkCustomOperationConfig, checkRouteOptions } from './validate-custom-operation';
import type { EntityConfig } from '../config/entity-config';
import type { OperationFacts } from '../config/operation-facts';
import { isPlainObject, SETTINGS_KEYS, validateSettings } from '../config/validate-settings';

const STRUCTURAL_KEYS = [
  'access',
  'computed',
  'parent',
  'schema',
  'set',
  'policy',
  'filter',
  'sort',
  'select',
  'search',
  'include',
  'relations',
  'operations',
  'envelope',
];
/** Settings keys that this version of Svc does not serve yet: refused rather than silently ignored. */
const NOT_YET = new Set<string>();
const OPERATION_EXTRAS = ['handler', 'meta', 'policy', 'schema'];

/** @param facts the standard operations' facts, by id */
export function validateEntityConfig(
  entity: string,
  config: EntityConfig,
  facts: ReadonlyMap<string, OperationFacts>,
): void {
  if (!isPlainObject(config))
    throw new ConfigurationException({ entity, message: 'The entity config must be a plain object.' });
  // An operation that is off unless the config turns it on is turned on by a key of its own (`batch`, `count`).
  const optIns = [
    ...new Set([...facts.values()].flatMap((fact) => (fact.optIn ? [fact.optIn.path.split('.')[0]!] : []))),
  ];
  const known = [...SETTINGS_KEYS, ...STRUCTURAL_KEYS, ...optIns];
  for (const key of Object.keys(config)) {
    if (!known.includes(key))
      throw new ConfigurationException({
        entity,
        path: key,
        message: `is not a known config key.${suggestion(key, known)}`,
      });
    if (NOT_YET.has(key) && (config as Record<string, unknown>)[key] !== undefined) {
      throw new ConfigurationException({
        entity,
        path: key,
        message: 'is not supported by this version of Svc yet. Remove it.',
      });
    }
  }
  if (config.count !== undefined && typeof config.count !== 'boolean')
    throw new ConfigurationException({ entity, path: 'count', message: 'must be true or false.' });
  validateSettings(config as Record<string, unknown>, { scope: 'entity', entity });
  checkSchema(entity, config.schema);
  checkBlock(entity, 'filter', config.filter, ['fields', 'default', 'apply', 'limits', 'params']);
  checkBlock(entity, 'sort', config.sort, ['fields', 'default', 'apply']);
  checkBlock(entity, 'select', config.select, ['fields', 'default', 'apply']);
  checkBlock(entity, 'include', config.include, ['fields', 'default', 'apply', 'limits']);
  if (config.policy !== undefined && typeof config.policy !== 'function') {
    throw new ConfigurationException({
      entity,
      path: 'policy',
      message: 'must be a function (args) => boolean | Promise<boolean>.',
    });
  }
  for (const [id, opConfig] of Object.entries(config.operations ?? {})) {
    const standard = facts.get(id);
    if (!standard && opConfig !== false && opConfig !== undefined) {
      if (opConfig !== true && !isPlainObject(opConfig))
        throw new ConfigurationException({
          entity,
          path: `operations.${id}`,
          message: 'must be true, false or a custom operation entry { handler, kind, cardinality, ... }.',
        });
      checkCustomOperationConfig(entity, id, opConfig === true ? {} : opConfig, facts);
    } else if (standard && isPlainObject(opConfig)) checkOperationConfig(entity, standard, opConfig);
  }
}

function checkOperationConfig(entity: string, operation: OperationFacts, opConfig: Record<string, unknown>): void {
  const path = `operations.${operation.id}`;
  const allowed = [...SETTINGS_KEYS, ...OPERATION_EXTRAS];
  for (const key of Object.keys(opConfig)) {
    if (!allowed.includes(key))
      throw new ConfigurationException({
        entity,
        path: `${path}.${key}`,
        message: `is not a known key.${suggestion(key, allowed)}`,
      });
  }
  validateSettings(opConfig, { scope: 'operation', entity, path, operation });
  if (opConfig.handler !== undefined && typeof opConfig.handler !== 'function') {
    throw new ConfigurationException({
      entity,
      path: `${path}.handler`,
      message: 'must be a function (input, context) => result.',
    });
  }
  if (opConfig.policy !== undefined && opConfig.policy !== false && typeof opConfig.policy !== 'function') {
    throw new ConfigurationException({
      entity,
      path: `${path}.policy`,
      message: 'must be a policy function or false.',
    });
  }
  checkRouteOptions(entity, path, opConfig.meta);
  checkOperationSchema(entity, operation, opConfig.schema);
}

/** The schema parts an operation has (`schemaParts`): input and output on the body writes, output and query on reads. */
function checkOperationSchema(entity: string, operation: OperationFacts, schema: unknown): void {
  if (schema === undefined) return;
  const { id } = operation;
  const path = `operations.${id}.schema`;
  if (!isPlainObject(schema))
    throw new ConfigurationException({ entity, path, message: 'must be an object { input?, output?, query? }.' });
  const parts: readonly string[] = operation.schemaParts;
  for (const [part, value] of Object.entries(schema)) {
    if (value === undefined) continue;
    if (!['input', 'output', 'query'].includes(part)) {
      throw new ConfigurationException({
        entity,
        path: `${path}.${part}`,
        message: `is not a schema part.${suggestion(part, ['input', 'output', 'query'])}`,
      });
    }
    if (!parts.includes(part)) {
      const has = parts.length > 0 ? `it has ${parts.join(' and ')}` : 'it has no schema parts (its result is empty)';
      throw new ConfigurationException({
        entity,
        path: `${path}.${part}`,
        message: `is not a part ${id} has; ${has}.`,
      });
    }
    if (part === 'output' && typeof value !== 'function' && !isStandardSchema(value)) {
      throw new ConfigurationException({
        entity,
        path: `${path}.output`,
        message: 'takes a schema class or a Standard Schema validator.',
      });
    }
  }
}

function checkSchema(entity: string, schema: unknown): void {
  if (schema === undefined) return;
  if (!isPlainObject(schema))
    throw new ConfigurationException({
      entity,
      path: 'schema',
      message: 'must be an object { input?: { create?, update?, patch? }, output?: { item?, list? } }.',
    });
  for (const key of Object.keys(schema)) {
    if (key !== 'input' && key !== 'output') {
      throw new ConfigurationException({
        entity,
        path: `schema.${key}`,
        message: `is not a schema part.${suggestion(key, ['input', 'output'])}`,
      });
    }
  }
  const output = schema.output;
  if (output !== undefined) {
    if (!isPlainObject(output))
      throw new ConfigurationException({
        entity,
        path: 'schema.output',
        message: 'must be an object { item?, list? }.',
      });
    for (const key of Object.keys(output)) {
      if (key !== 'item' && key !== 'list') {
        throw new ConfigurationException({
          entity,
          path: `schema.output.${key}`,
          message: `is not an output slot.${suggestion(key, ['item', 'list'])}`,
        });
      }
    }
  }
  const input = schema.input;
  if (input === undefined) return;
  if (!isPlainObject(input))
    throw new ConfigurationException({
      entity,
      path: 'schema.input',
      message: 'must be an object { create?, update?, patch?, query? }.',
    });
  const slots = ['create', 'update', 'patch', 'query'];
  for (const key of Object.keys(input)) {
    if (!slots.includes(key)) {
      throw new ConfigurationException({
        entity,
        path: `schema.input.${key}`,
        message: `is not a write slot.${suggestion(key, slots)}`,
      });
    }
  }
}

function checkBlock(entity: string, name: string, block: unknown, keys: string[]): void {
  if (block === undefined) return;
  if (!isPlainObject(block)) throw new ConfigurationException({ entity, path: name, message: 'must be an object.' });
  for (const key of Object.keys(block)) {
    if (!keys.includes(key))
      throw new ConfigurationException({
        entity,
        path: `${name}.${key}`,
        message: `is not a known key.${suggestion(key, keys)}`,
      });
  }
}
