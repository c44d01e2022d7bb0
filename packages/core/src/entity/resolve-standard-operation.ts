/**
 * One standard operation of an entity: its settings chain, soft delete, policy, handler, write slot, output validator,
 * and for a read its list-query config and the relations it reads through.
 */
import type { OperationHandler, PolicyFunction } from '../config/entity-config';
import type { IncludeConfig } from '../config/include-config';
import { mergeSettingsChain } from '../config/merge-settings';
import type { OperationFacts } from '../config/operation-facts';
import { relationOfPath } from '../config/resolve-field-path';
import type { OperationState } from '../config/resolve-operations';
import { BUILT_IN_SETTINGS } from '../config/built-in-settings';
import { ConfigurationException } from '../errors/configuration-exception';
import type { EntityMetadata, RelationMetadata } from '../persistence/entity-metadata';
import { buildListQueryConfig } from '../query/build-list-query-config';
import { checkKeysetConfig } from '../query/check-keyset-config';
import type { ListQueryConfig } from '../query/list-query-config';
import { buildQueryValidator } from '../query/query-validator';
import { buildOutputSlot, outputValidatorOf } from '../schema/output-slots';
import { resolveInputSlot } from '../schema/resolve-input-slot';
import { listArgs, type EntityScope } from './entity-scope';
import { pickSettings } from './pick-settings';
import type { ResolvedOperation } from './resolved-entity';
import { resolveSoftDelete } from './resolve-soft-delete';
import { refuseUnservedSettings } from './served-settings';

/** One operation: its settings chain, soft delete, policy, handler and (for reads) its query config. */
export function resolveStandardOperation(
  scope: EntityScope,
  facts: OperationFacts,
  state: OperationState,
): ResolvedOperation {
  const { name, metadata, args } = scope;
  const id = facts.id;
  const reads = facts.takes.query !== 'none';
  const many = facts.answers === 'list';
  const { config, global } = args;
  const opConfig = config.operations?.[id];
  const opObject = typeof opConfig === 'object' ? opConfig : undefined;
  const counterpart = counterpartOf(scope, facts);
  const ownPolicy = opObject?.policy ?? counterpart?.policy;
  const scopes = [global, config, opObject ? pickSettings(opObject) : undefined];
  const settings = mergeSettingsChain(BUILT_IN_SETTINGS, scopes);
  const softDelete = scope.soft && resolveSoftDelete(name, settings, metadata);
  refuseUnservedSettings(name, facts, settings, {
    strategies: args.strategies,
    realtime: args.publisher?.hasTransports,
  });
  const opOutput = buildOutputSlot(name, metadata, 'item', opObject?.schema?.output, `operations.${id}.schema.output`);
  const shape = scope.reads;
  const list = reads
    ? buildListQueryConfig({
        ...listArgs(scope),
        settings,
        softDelete,
        outputFields: opOutput ?? (many ? shape.outputList : shape.outputItem),
      })
    : undefined;
  if (list && many) checkKeysetConfig(name, metadata, list);
  return Object.freeze({
    ...(list
      ? { readsThrough: relationsReadThrough(metadata, shape.include, list, aggregateRelations(scope, facts)) }
      : {}),
    id,
    facts,
    settingsAs: facts,
    ...(facts.event ? { event: facts.event } : {}),
    reads: facts.kind === 'read',
    route: opObject?.meta?.routes,
    state,
    settings,
    scopes,
    softDelete,
    policy: ownPolicy === false ? undefined : (ownPolicy ?? config.policy ?? args.globalPolicy),
    // A config handler may name a narrower body than the engine passes (its slot's), which the slot then guarantees.
    handler: args.handlers?.[id] ?? (opObject?.handler as OperationHandler | undefined),
    input: operationInput(scope, facts, opObject?.schema?.input ?? counterpart?.schema?.input),
    queryValidator: reads
      ? buildQueryValidator({
          entity: name,
          path: opObject?.schema?.query ? `operations.${id}.schema.query` : 'schema.input.query',
          value: opObject?.schema?.query ?? (config.schema?.input as { query?: unknown } | undefined)?.query,
          classSchemas: args.classSchemas,
        })
      : undefined,
    outputFields: opOutput,
    outputValidator: operationOutputValidator(facts, opObject?.schema?.output, config.schema?.output),
    list,
  });
}

/** The write slot of a body write: its own `schema.input` part, else the entity's root slot. */
function operationInput(scope: EntityScope, facts: OperationFacts, part: unknown) {
  const slot = facts.takes.body;
  if (slot === 'none') return undefined;
  if (part === undefined) return scope.inputs[slot];
  const path = `operations.${facts.id}.schema.input`;
  const { name: entity, metadata } = scope;
  return resolveInputSlot({
    entity,
    metadata,
    slot,
    value: part,
    path,
    classSchemas: scope.args.classSchemas,
    validatorsOnly: true,
  });
}

/** The output validator of an operation: its own part, else the entity's list or item slot, as the operation answers. */
function operationOutputValidator(
  facts: OperationFacts,
  part: unknown,
  root: { item?: unknown; list?: unknown } | undefined,
) {
  const slot = OUTPUT_SLOTS[facts.answers];
  if (slot === undefined) return undefined;
  if (part !== undefined) return outputValidatorOf(part, `operations.${facts.id}.schema.output`);
  return outputValidatorOf(root?.[slot], `schema.output.${slot}`);
}

/** The entity's output slot each answer is checked against: rows are, a batch's items as items; counts are not. */
const OUTPUT_SLOTS: { readonly [Answer in OperationFacts['answers']]: 'item' | 'list' | undefined } = {
  item: 'item',
  list: 'list',
  batch: 'item',
  none: undefined,
  aggregate: undefined,
  total: undefined,
};

/**
 * A batch write's one-row operation's own config (its policy and `schema.input` carry over). A replacement handler
 * there, or on the batch itself, stops the boot: a batch would write past it.
 */
function counterpartOf(scope: EntityScope, facts: OperationFacts): StandardOperationConfigObject | undefined {
  const other = facts.counterpart;
  if (!other) return undefined;
  const { config, handlers } = scope.args;
  const own = config.operations?.[facts.id];
  const entry = config.operations?.[other];
  const object = typeof entry === 'object' ? (entry as StandardOperationConfigObject) : undefined;
  const replaced = [
    [facts.id, handlers?.[facts.id] ?? (typeof own === 'object' ? own.handler : undefined)],
    [other, handlers?.[other] ?? object?.handler],
  ] as const;
  for (const [id, handler] of replaced) {
    if (!handler) continue;
    throw new ConfigurationException({
      entity: scope.name,
      path: facts.optIn?.path ?? `operations.${facts.id}`,
      message: `turns ${facts.id} on, but ${id} has a replacement handler, which ${facts.id} would bypass (a batch cannot be replaced). Turn ${facts.optIn?.path ?? facts.id} off, or write a custom operation.`,
    });
  }
  return object;
}

type StandardOperationConfigObject = {
  readonly policy?: PolicyFunction | false;
  readonly handler?: unknown;
  readonly schema?: { readonly input?: unknown };
};

/** The relations an aggregate's group paths cross, for the operation that takes an aggregate query. */
function aggregateRelations(scope: EntityScope, facts: OperationFacts): readonly RelationMetadata[] {
  return facts.takes.query === 'aggregate' ? (scope.aggregate?.relations ?? []) : [];
}

/** The included relations, then those a relation path of the read's filter, sort or search fields goes through. */
function relationsReadThrough(
  metadata: EntityMetadata,
  include: IncludeConfig,
  list: ListQueryConfig,
  grouped: readonly RelationMetadata[],
): RelationMetadata[] {
  const relations = new Set([...include.relations.values()].map(({ relation }) => relation));
  for (const relation of grouped) relations.add(relation);
  for (const path of [...list.filter.fields.keys(), ...list.sort.fields, ...(list.search?.fields ?? [])]) {
    const head = relationOfPath(path, list.columns);
    const relation = head === undefined ? undefined : metadata.relations.find((r) => r.property === head);
    if (relation) relations.add(relation);
  }
  return [...relations];
}
