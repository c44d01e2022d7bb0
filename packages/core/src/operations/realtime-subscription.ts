/**
 * A realtime subscription: who is listening to an entity's events, and which events each one may receive. It holds
 * the subscriber's context, so the list's policy and the entity's `filter.apply` decide delivery per subscriber and
 * per event with that subscriber's own identity; `deleted` is decided against the row as it was before the delete.
 */
import { relationOfPath } from '../config/resolve-field-path';
import type { SvcContext } from '../config/svc-context';
import type { RealtimeEventId } from '../config/svc-settings';
import type { ResolvedEntity, ResolvedOperation } from '../entity/resolved-entity';
import { QueryErrors } from '../errors/query-errors';
import type { ColumnKind } from '../persistence/entity-metadata';
import { andFilters, type FilterNode } from '../persistence/query-ast';
import { matchFilter } from '../query/match-filter';
import type { QueryPairs } from '../query/parse-query-string';
import type { ListQueryConfig } from '../query/list-query-config';
import { readListParams } from '../query/read-list-params';
import { visibleRows } from '../query/visible-rows';
import { roleView } from '../query/related-reach';
import { askPolicy } from '../config/ask-policy';
import { resolveFilterExpression } from '../query/resolve-filter-expression';
import { resolveClientFilter } from '../query/resolve-client-filter';
import { eventSubjectOf } from '../realtime/event-subject';
import type { RealtimeEvent } from '../realtime/realtime-event';

/** What a subscriber asks for: the wire query (`filter`, `id`, `lastEventId`) or its programmatic form. */
export interface SubscribeOptions {
  /** `filter` in the list grammar (and allowlists), `id` for one row; `lastEventId` is the transport's. */
  readonly query?: QueryPairs | { readonly filter?: unknown; readonly id?: unknown };
  readonly context?: SvcContext;
}

export interface RealtimeSubscription {
  /** The entity's name: the events this subscription is about. */
  readonly entity: string;
  /** The events the entity publishes (its resolved `realtime.events`). */
  readonly events: readonly RealtimeEventId[];
  /** The event as this subscriber may receive it, or undefined when it may not see it. */
  admit(event: RealtimeEvent): Promise<RealtimeEvent | undefined>;
}

const EVENT_IDS: readonly RealtimeEventId[] = ['created', 'updated', 'patched', 'deleted', 'restored'];
/** Query parameters a subscription takes besides the filter; `lastEventId` is read by the transport. */
const SUBSCRIPTION_PARAMS = new Set(['id', 'lastEventId']);

/** The events an entity publishes: those some write operation's resolved `realtime` lets out. */
export function realtimeEventsOf(entity: ResolvedEntity): RealtimeEventId[] {
  const on = new Set<RealtimeEventId>();
  for (const operation of entity.operations.values()) {
    const realtime = operation.settings.realtime;
    if (operation.reads || realtime === false || operation.state !== 'on') continue;
    for (const id of EVENT_IDS) if (realtime.events[id] !== false) on.add(id);
  }
  return EVENT_IDS.filter((id) => on.has(id));
}

/**
 * The subscription of one subscriber, once the subscribe steps have let it open: each event is admitted against the
 * list's policy, the entity's scope and the subscriber's filter, asked again per event.
 */
export function subscriptionOf(args: {
  readonly entity: ResolvedEntity;
  readonly events: readonly RealtimeEventId[];
  readonly listing: ResolvedOperation;
  readonly context: SvcContext;
  readonly filter?: FilterNode;
  readonly id?: string;
}): RealtimeSubscription {
  const { entity, events, listing, context, filter, id } = args;
  const kinds = kindsOf(entity);
  return {
    entity: entity.name,
    events,
    admit: (event) => admit({ entity, listing, context, filter, id, kindOf: (field) => kinds.get(field) }, event),
  };
}

/** Whether the list's policy lets this context read the entity's rows (and so their events). */
export function listAllowed(listing: ResolvedOperation, context: SvcContext): Promise<boolean> {
  return allowed(listing, context);
}

interface Subscriber {
  readonly entity: ResolvedEntity;
  readonly listing: ResolvedOperation;
  readonly context: SvcContext;
  readonly filter?: FilterNode;
  readonly id?: string;
  readonly kindOf: (field: string) => ColumnKind | undefined;
}

async function admit(subscriber: Subscriber, event: RealtimeEvent): Promise<RealtimeEvent | undefined> {
  const { entity, context } = subscriber;
  if (event.entity !== entity.name) return undefined;
  // An event whose stored row is unknown here cannot be checked against a scope: it is not delivered.
  const subject = eventSubjectOf(event);
  if (!subject) return undefined;
  if (subscriber.id !== undefined && lookupOf(entity, subject) !== subscriber.id) return undefined;
  // The policy and the scope are asked again per event: a caller's rights may have changed since it subscribed.
  if (!(await allowed(subscriber.listing, context))) return undefined;
  // A question of its own per event (never kept): the caller's scope may have changed since the last one.
  const scope = await visibleRows(entity, { operation: subscriber.listing.id, context });
  const where = andFilters(scope, subscriber.filter);
  // Served as the subscriber's role sees the entity (`access`), asked per event as the policy is.
  const served = roleView(entity, context);
  if (!where) return asServedBy(served, event);
  const verdict = matchFilter(where, subject, subscriber.kindOf);
  if (verdict !== undefined) return verdict ? asServedBy(served, event) : undefined;
  // Memory cannot decide (a relation path, `like`): the database decides for a row that still exists; a deleted one
  // can no longer be asked about, so its event is not delivered.
  if (event.event === 'deleted') return undefined;
  const key = Object.fromEntries(entity.metadata.primaryKeys.map((field) => [field, subject[field]]));
  const row = await entity.adapter.findOne({ key, where, view: 'all' });
  return row ? asServedBy(served, event) : undefined;
}

/**
 * Each event as each subscribed service serves it, decided once per pair (so that service's subscribers share one
 * frame): the event itself, a narrowed copy, or null when it is no news to that service.
 */
const servedEvents = new WeakMap<RealtimeEvent, WeakMap<ResolvedEntity, RealtimeEvent | null>>();

/**
 * The event with only the fields the subscriber's own service serves: its item is projected by the service of the
 * write, and another controller of the entity may serve fewer fields (an event is never a way around `select`).
 */
function asServedBy(entity: ResolvedEntity, event: RealtimeEvent): RealtimeEvent | undefined {
  let byEntity = servedEvents.get(event);
  if (!byEntity) servedEvents.set(event, (byEntity = new WeakMap()));
  let served = byEntity.get(entity);
  if (served === undefined) byEntity.set(entity, (served = narrowed(entity, event)));
  return served ?? undefined;
}

function narrowed(entity: ResolvedEntity, event: RealtimeEvent): RealtimeEvent | null {
  const { fields, changeable } = servedNamesOf(entity);
  const { item, changed } = event;
  const hidden =
    (item !== null && Object.keys(item).some((name) => !fields.has(name))) ||
    changed?.some((name) => !changeable.has(name));
  if (!hidden) return event;
  const shown = changed?.filter((name) => changeable.has(name));
  // A change to nothing this service serves is no news to its subscribers (nor a hint of what changed unseen).
  if (changed?.length && !shown?.length) return null;
  return {
    ...event,
    item: item && Object.fromEntries(Object.entries(item).filter(([name]) => fields.has(name))),
    ...(shown ? { changed: shown } : {}),
  };
}

interface ServedNames {
  /** The fields the service serves. */
  readonly fields: ReadonlySet<string>;
  /** What `changed` may name: those fields, and the entity's relations (an array write changes one). */
  readonly changeable: ReadonlySet<string>;
}

const servedNames = new WeakMap<ResolvedEntity, ServedNames>();

function servedNamesOf(entity: ResolvedEntity): ServedNames {
  let names = servedNames.get(entity);
  if (!names) {
    // Computed fields are the writer's (`favorited` by whoever wrote): an event carries none; a subscriber reads them.
    const computed = new Set(entity.computed.map((field) => field.name));
    const fields = new Set(entity.output.fields.filter((name) => !computed.has(name)));
    const changeable = new Set([...fields, ...entity.metadata.relations.map((relation) => relation.property)]);
    servedNames.set(entity, (names = { fields, changeable }));
  }
  return names;
}

async function allowed(listing: ResolvedOperation, context: SvcContext): Promise<boolean> {
  return askPolicy(listing.policy, { operation: listing.id, context });
}

/** The filter (list grammar, the list's allowlists, own columns) and the row id of a subscription's query. */
export function readSubscriptionQuery(
  query: SubscribeOptions['query'],
  list: ListQueryConfig,
): { filter?: FilterNode; id?: string } {
  const allowlist = list.filter;
  const errors = new QueryErrors();
  let filter: FilterNode | undefined;
  let id: string | undefined;
  if (query === undefined) return {};
  if (Array.isArray(query)) {
    const pairs = query as QueryPairs;
    const rest = pairs.filter(([key]) => !SUBSCRIPTION_PARAMS.has(key));
    for (const [key] of rest) {
      if (key !== 'filter' && !key.startsWith('filter['))
        errors.unsupportedParam(key, `${key} is not taken by an event subscription; it takes filter and id.`);
    }
    const wire = readListParams(
      rest.filter(([key]) => key === 'filter' || key.startsWith('filter[')),
      errors,
    );
    filter = resolveClientFilter(wire, allowlist, errors);
    const ids = pairs.filter(([key]) => key === 'id');
    if (ids.length > 1) errors.add('id', 'repeated', 'id is given more than once. Send it once.');
    id = ids[0]?.[1];
  } else {
    const { filter: expression, id: given, ...unknown } = query as { filter?: unknown; id?: unknown };
    for (const key of Object.keys(unknown))
      errors.unsupportedParam(key, `${key} is not taken by an event subscription; it takes filter and id.`);
    filter = expression === undefined ? undefined : resolveFilterExpression(expression, allowlist, errors);
    id = given === undefined ? undefined : String(given);
  }
  if (filter && hasRelationPath(filter, list.columns))
    errors.add('filter', 'relation_path', 'An event subscription filters on the entity’s own fields only.');
  errors.throwIfAny();
  return { ...(filter ? { filter } : {}), ...(id !== undefined ? { id } : {}) };
}

function hasRelationPath(node: FilterNode, columns: ListQueryConfig['columns']): boolean {
  if (node.kind === 'not') return hasRelationPath(node.child, columns);
  if (node.kind !== 'condition') return node.children.some((child) => hasRelationPath(child, columns));
  return relationOfPath(node.field, columns) !== undefined;
}

/** The row's route id: its lookup field (identifier or primary key), or the key's values joined by `,`. */
function lookupOf(entity: ResolvedEntity, subject: Readonly<Record<string, unknown>>): string {
  return entity.lookup.fields.map((field) => String(subject[field])).join(',');
}

const kindsByEntity = new WeakMap<ResolvedEntity, ReadonlyMap<string, ColumnKind>>();

function kindsOf(entity: ResolvedEntity): ReadonlyMap<string, ColumnKind> {
  let kinds = kindsByEntity.get(entity);
  if (!kinds) {
    kinds = new Map(entity.metadata.columns.map((column) => [column.property, column.kind]));
    kindsByEntity.set(entity, kinds);
  }
  return kinds;
}
