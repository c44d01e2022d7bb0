/** `relations.<name>.write.strategy`: which to-many relations take array writes, and how (routes or JSON Patch). */
import { ConfigurationException } from '../errors/configuration-exception';
import type { ColumnMetadata, EntityMetadata, RelationMetadata } from '../persistence/entity-metadata';
import type { RepositoryAdapter } from '../persistence/repository-adapter';
import type { RelationConfigInput } from './entity-config';
import { isPlainObject } from './validate-settings';

export type ArrayWriteStrategy = 'replace' | 'resource' | 'jsonPatch';
const STRATEGIES: readonly ArrayWriteStrategy[] = ['replace', 'resource', 'jsonPatch'];

export interface ArrayRelation {
  readonly relation: RelationMetadata;
  readonly strategy: ArrayWriteStrategy;
  /** The target's primary key: members are named by it. */
  readonly targetKey: ColumnMetadata;
  /** Member ids one request may name (`write.maxMembers`). */
  readonly maxMembers: number;
}

/** @default 1000 member ids per request; a request naming more is a 400. */
export const DEFAULT_MAX_MEMBERS = 1000;
/** Writes are chunked below the databases' parameter limits, but one request stays a bounded amount of work. */
const MAX_CONFIGURABLE_MEMBERS = 10_000;
const WRITE_KEYS = ['strategy', 'maxMembers', 'decorators', 'nested', 'maxDepth'];

/** The operations each strategy adds, as `<relation>:<action>` ids (jsonPatch rides on patchOne instead). */
export const ARRAY_ACTIONS: Readonly<Record<ArrayWriteStrategy, readonly RelationAction[]>> = {
  replace: ['replace'],
  resource: ['list', 'add', 'replace', 'remove'],
  jsonPatch: [],
};
export type RelationAction = 'list' | 'add' | 'replace' | 'remove';

export function buildArrayRelations(
  entity: string,
  metadata: EntityMetadata,
  relations: { readonly [relation: string]: RelationConfigInput | undefined } | undefined,
  adapter: RepositoryAdapter,
): ReadonlyMap<string, ArrayRelation> {
  const out = new Map<string, ArrayRelation>();
  for (const [name, entry] of Object.entries(relations ?? {})) {
    if (!isPlainObject(entry) || entry.write === undefined) continue;
    const path = `relations.${name}.write`;
    const fail = (message: string, at = path) => {
      throw new ConfigurationException({ entity, path: at, message });
    };
    const relation = metadata.relations.find((candidate) => candidate.property === name);
    if (!relation) continue; // an unknown relation name is reported by the include config
    const write = entry.write as unknown;
    if (!isPlainObject(write)) fail('must be an object { strategy?, nested?, maxMembers?, maxDepth?, decorators? }.');
    for (const key of Object.keys(write as object))
      if (!WRITE_KEYS.includes(key))
        fail(
          'is not a known key; write takes strategy, nested, maxMembers, maxDepth and decorators.',
          `${path}.${key}`,
        );
    // Nested writes alone (relations.<name>.write.nested) are resolved with the entity's nested relations.
    if (
      (write as { strategy?: unknown }).strategy === undefined &&
      (write as { nested?: unknown }).nested !== undefined
    )
      continue;
    if (relation.kind !== 'one-to-many' && relation.kind !== 'many-to-many')
      fail(
        'strategy is not allowed on a to-one relation; write it by id ({ "relation": { "id": 7 } }), or nested (write.nested).',
      );
    if (!STRATEGIES.includes((write as { strategy?: unknown }).strategy as ArrayWriteStrategy))
      fail(`must be { strategy } with strategy ${STRATEGIES.join(', ')}.`, `${path}.strategy`);
    const decorators = (write as { decorators?: unknown }).decorators;
    if (
      decorators !== undefined &&
      (!Array.isArray(decorators) || decorators.some((item) => typeof item !== 'function'))
    )
      fail('must be an array of decorators, such as [UseGuards(AuthGuard)].', `${path}.decorators`);
    const maxMembers = (write as { maxMembers?: unknown }).maxMembers ?? DEFAULT_MAX_MEMBERS;
    if (
      !Number.isInteger(maxMembers) ||
      (maxMembers as number) < 1 ||
      (maxMembers as number) > MAX_CONFIGURABLE_MEMBERS
    )
      fail(`must be an integer from 1 to ${MAX_CONFIGURABLE_MEMBERS}.`, `${path}.maxMembers`);
    if (!adapter.updateRelation || !adapter.metadataOf)
      fail(`needs an adapter that writes relations (updateRelation); ${adapter.metadata.name}'s does not.`);
    const target = adapter.metadataOf!(relation.target);
    if (target.primaryKeys.length !== 1)
      fail(`${target.name} has a composite primary key; array writes name members by a single key.`);
    const targetKey = target.columns.find((column) => column.property === target.primaryKeys[0])!;
    const strategy = (write as { strategy: ArrayWriteStrategy }).strategy;
    out.set(name, { relation, strategy, targetKey, maxMembers: maxMembers as number });
  }
  return out;
}

/**
 * Write permission for array relations follows the update slot: a field list names the relations it lets clients
 * write (and those names are taken out of the list the body rules see); any other slot permits every array relation.
 */
export function splitMemberFields(
  slot: unknown,
  arrays: ReadonlyMap<string, ArrayRelation>,
): { slot: unknown; writable: ReadonlySet<string> } {
  const names = Array.isArray(slot)
    ? (slot as string[])
    : isPlainObject(slot) && Array.isArray(slot.fields)
      ? (slot.fields as string[])
      : undefined;
  if (!names) return { slot, writable: new Set(arrays.keys()) };
  const writable = new Set(names.filter((name) => arrays.has(name)));
  const rest = names.filter((name) => !arrays.has(name));
  return { slot: Array.isArray(slot) ? rest : { ...(slot as object), fields: rest }, writable };
}
