/**
 * The operations one entity serves: the standard ones that are on, then the custom ones, then each array relation's
 * member operations; and the refusals that look at them together (writes to a view, a JSON Patch a handler bypasses).
 */
import { ARRAY_ACTIONS, type ArrayRelation, type RelationAction } from '../config/array-relations';
import { BUILT_IN_SETTINGS } from '../config/built-in-settings';
import type { CustomOperationConfig } from '../config/entity-config';
import { mergeSettingsChain } from '../config/merge-settings';
import { listsRows, readsById, standardOf, type OperationFacts } from '../config/operation-facts';
import { resolveOperations, type OperationState } from '../config/resolve-operations';
import { ConfigurationException } from '../errors/configuration-exception';
import { buildListQueryConfig } from '../query/build-list-query-config';
import { checkKeysetConfig } from '../query/check-keyset-config';
import { listArgs, type EntityScope } from './entity-scope';
import { pickSettings } from './pick-settings';
import { refuseUnknownOverrides, resolveCustomOperation } from './resolve-custom-operation';
import { resolveSoftDelete } from './resolve-soft-delete';
import { resolveStandardOperation } from './resolve-standard-operation';
import type { ResolvedOperation } from './resolved-entity';
import { refuseUnservedSettings } from './served-settings';
import { settingsRulesOf } from './validate-custom-operation';

/** The standard operations that are on, then the custom ones, then each array relation's member operations. */
export function resolveEntityOperations(
  scope: EntityScope,
  arrayRelations: ReadonlyMap<string, ArrayRelation>,
): Map<string, ResolvedOperation> {
  const { name, args, soft } = scope;
  const { states, customs } = resolveOperations({
    entity: name,
    map: args.config.operations,
    globalMap: args.global.operations,
    soft,
    facts: args.operationFacts,
    config: args.config,
  });
  const operations = new Map<string, ResolvedOperation>();
  for (const [id, state] of states) {
    const facts = args.operationFacts.get(id);
    if (facts) operations.set(id, resolveStandardOperation(scope, facts, state));
  }
  if (scope.metadata.view)
    refuseWritesToView(name, scope.metadata.primaryKeys.length > 0, operations, args.operationFacts);
  for (const [id, custom] of customs) operations.set(id, resolveCustom(scope, id, custom));
  for (const [relation, array] of arrayRelations) {
    for (const action of ARRAY_ACTIONS[array.strategy])
      operations.set(`${relation}:${action}`, resolveMemberOperation(scope, operations, relation, action));
  }
  refuseUnknownOverrides(name, operations, args.handlers);
  refuseBypassedJsonPatch(name, operations, arrayRelations);
  if (![...operations.values()].some((operation) => operation.facts?.kind === 'read')) {
    // No read is served, but a misspelt allowlist is still a configuration error, found now.
    buildListQueryConfig({ ...listArgs(scope), settings: scope.entitySettings, softDelete: soft });
  }
  return operations;
}

/**
 * A view's rows cannot be written: an entity over one serves reads only, and says so in its `operations` map, so a
 * write is never routed to answer with a database error.
 */
function refuseWritesToView(
  entity: string,
  keyed: boolean,
  operations: ReadonlyMap<string, ResolvedOperation>,
  standard: ReadonlyMap<string, OperationFacts>,
): void {
  // Without a key (a view need not have one), no row can be addressed by its id either.
  const servable = (facts: OperationFacts) => facts.kind === 'read' && (keyed || !facts.takes.id);
  const served = (can: boolean) =>
    [...operations.values()].filter(({ facts }) => facts !== undefined && servable(facts) === can);
  const unserved = served(false);
  if (unserved.length === 0) return;
  const reads = served(true);
  const fallback = [listsRows, ...(keyed ? [readsById] : [])].map((shape) => standardOf(standard.values(), shape));
  const map = (reads.length > 0 ? reads : fallback).map(({ id }) => `${id}: true`);
  const why = keyed ? 'whose rows cannot be written' : 'whose rows cannot be written, and which has no primary key';
  throw new ConfigurationException({
    entity,
    path: 'operations',
    message: `${entity} reads a database view, ${why}, yet ${unserved.map(({ id }) => id).join(', ')} would be served. Serve what it can: operations: { ${map.join(', ')} }.`,
  });
}

/** A custom operation, under its own settings scope and the rules of the standard operation of its shape. */
function resolveCustom(
  scope: EntityScope,
  id: string,
  custom: { readonly state: OperationState; readonly config: CustomOperationConfig },
): ResolvedOperation {
  const { name, metadata, args } = scope;
  const settings = mergeSettingsChain(BUILT_IN_SETTINGS, [args.global, args.config, pickSettings(custom.config)]);
  const softDelete = scope.soft && resolveSoftDelete(name, settings, metadata);
  const settingsAs = settingsRulesOf(custom.config, args.operationFacts);
  refuseUnservedSettings(name, settingsAs, settings, {
    strategies: args.strategies,
    realtime: args.publisher?.hasTransports,
  });
  const list =
    custom.config.kind === 'read' ? buildListQueryConfig({ ...listArgs(scope), settings, softDelete }) : undefined;
  if (list && settingsAs.cardinality === 'many') checkKeysetConfig(name, metadata, list);
  return resolveCustomOperation({ scope: { name, metadata, args }, id, ...custom, settings, softDelete, list });
}

/** A relation's member operation: a member list follows the rules of the read by id, a member write the replace's. */
function resolveMemberOperation(
  scope: EntityScope,
  operations: ReadonlyMap<string, ResolvedOperation>,
  relation: string,
  action: RelationAction,
): ResolvedOperation {
  const { args } = scope;
  const settingsAs = standardOf(
    args.operationFacts.values(),
    action === 'list' ? readsById : (standard) => standard.takes.body === 'update',
  );
  const settings = operations.get(settingsAs.id)?.settings ?? scope.entitySettings;
  return {
    id: `${relation}:${action}`,
    settingsAs,
    ...(action === 'list' ? {} : { event: 'updated' as const }),
    reads: action === 'list',
    state: 'on',
    settings,
    scopes: [args.global, args.config],
    softDelete: scope.soft && resolveSoftDelete(scope.name, settings, scope.metadata),
    policy: args.config.policy ?? args.globalPolicy,
    relationWrite: { relation, action },
  };
}

/** A JSON Patch relation on an entity whose patch is replaced by a handler would be bypassed: refused at boot. */
function refuseBypassedJsonPatch(
  name: string,
  operations: ReadonlyMap<string, ResolvedOperation>,
  arrayRelations: ReadonlyMap<string, ArrayRelation>,
): void {
  const patchHandled = [...operations.values()].find((op) => op.facts?.takes.body === 'patch' && op.handler);
  const jsonPatched = [...arrayRelations.values()].find((array) => array.strategy === 'jsonPatch');
  if (!patchHandled || !jsonPatched) return;
  throw new ConfigurationException({
    entity: name,
    path: `relations.${jsonPatched.relation.property}.write.strategy`,
    message: `is 'jsonPatch', but ${patchHandled.id} has a replacement handler that a JSON Patch would bypass. Use 'resource' or 'replace', or drop the handler.`,
  });
}
