/** The per-entity `operations` map: absent → defaults, present → whitelist; the global boolean map. */
import { ConfigurationException } from '../errors/configuration-exception';
import type { CustomOperationConfig, EntityConfig, EntityOperationsMap } from './entity-config';
import type { OperationFacts } from './operation-facts';
import type { StandardOperationId } from './svc-settings';
import { isPlainObject } from './validate-settings';

/** `on`: served; `disabled`: on in entity config but off in the global map (405). Off operations are absent. */
export type OperationState = 'on' | 'disabled';

export interface OperationsResolution {
  readonly states: ReadonlyMap<StandardOperationId, OperationState>;
  /** Custom operations by id: `disabled` when the entry says `enabled: false` (no route, 405 when called). */
  readonly customs: ReadonlyMap<string, { readonly state: OperationState; readonly config: CustomOperationConfig }>;
}

export function resolveOperations(args: {
  entity: string;
  map: EntityOperationsMap | undefined;
  globalMap: Partial<Record<StandardOperationId, boolean>> | undefined;
  soft: boolean;
  /** The standard operations' facts, by id. */
  facts: ReadonlyMap<string, OperationFacts>;
  /** The entity config, which turns the opt-in operations (batch writes) on. */
  config: EntityConfig;
}): OperationsResolution {
  const { entity, map, globalMap, soft, facts } = args;
  const states = new Map<StandardOperationId, OperationState>();
  const customs = new Map<string, { state: OperationState; config: CustomOperationConfig }>();
  // Opt-in operations are on where the config turns them on, whatever the whitelist says.
  for (const { id, optIn, counterpart } of facts.values()) {
    if (!optIn?.on(args.config)) continue;
    const off = globalMap?.[id] === false || (counterpart !== undefined && globalMap?.[counterpart] === false);
    states.set(id, off ? 'disabled' : 'on');
  }
  if (map === undefined) {
    // On by default: every standard operation, but those that need soft delete only where the entity soft-deletes.
    for (const { id, needsSoftDelete, optIn } of facts.values()) {
      if ((needsSoftDelete && !soft) || optIn) continue;
      states.set(id, globalMap?.[id] === false ? 'disabled' : 'on');
    }
    return { states: inOrderOf(facts, states), customs };
  }
  if (!isPlainObject(map))
    throw new ConfigurationException({
      entity,
      path: 'operations',
      message: 'must be an object keyed by operation id.',
    });
  for (const [id, value] of Object.entries(map)) {
    const standard = facts.get(id);
    if (!standard) {
      // Shape and keys were checked by validateEntityConfig; `false` leaves a custom entry out like a standard one.
      if (value === false || value === undefined) continue;
      const config = (value === true ? {} : value) as CustomOperationConfig;
      customs.set(id, { state: config.enabled === false ? 'disabled' : 'on', config });
      continue;
    }
    if (value === false || value === undefined) continue;
    if (standard.optIn && states.has(standard.id)) continue;
    refuseNamed({ entity, id, value, standard, soft });
    states.set(standard.id, 'on');
  }
  return { states: inOrderOf(facts, states), customs };
}

/**
 * Refuses a standard operation the whitelist names that cannot be on: an opt-in one its switch leaves off, a bad
 * entry, or one that needs soft delete on an entity that deletes for good.
 */
function refuseNamed(args: {
  entity: string;
  id: string;
  value: unknown;
  standard: OperationFacts;
  soft: boolean;
}): void {
  const { entity, id, value, standard, soft } = args;
  const fail = (message: string) => new ConfigurationException({ entity, path: `operations.${id}`, message });
  if (standard.optIn) {
    const path = standard.optIn.path;
    throw fail(`names ${id}, which is off unless ${path} turns it on. Set ${path}, or remove operations.${id}.`);
  }
  if (value !== true && !isPlainObject(value)) throw fail('must be true, false or an operation config object.');
  if (standard.needsSoftDelete && !soft) {
    throw fail(
      `${id} needs soft delete, but ${entity} resolves to hard delete. Add a delete-date column (delete.field), or remove ${id}.`,
    );
  }
}

/** The states in the registry's order, the order every surface lists operations in. */
function inOrderOf(
  facts: ReadonlyMap<string, OperationFacts>,
  states: ReadonlyMap<StandardOperationId, OperationState>,
): Map<StandardOperationId, OperationState> {
  const ordered = new Map<StandardOperationId, OperationState>();
  for (const { id } of facts.values()) {
    const state = states.get(id);
    if (state) ordered.set(id, state);
  }
  return ordered;
}
