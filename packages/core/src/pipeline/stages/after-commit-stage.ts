/**
 * The one step after a write commits: it drops the cached reads the outcomes make stale (the entity's, and those of
 * entities a relation write touched) and hands their events to the realtime publisher. It runs for whatever committed,
 * even when the response then fails (a projection error after the handler's write, say).
 */
import type { ResolvedEntity } from '../../entity/resolved-entity';
import type { ResolvedSettings } from '../../config/svc-settings';
import type { RealtimeEvent } from '../../realtime/realtime-event';
import type { RealtimeSettings } from '../../config/svc-settings';
import { attachEventSubject } from '../../realtime/event-subject';
import type { WriteOutcome } from '../write-outcome';
import { stage } from '../stage';

export async function afterCommit(
  entity: ResolvedEntity,
  settings: ResolvedSettings,
  outcomes: readonly WriteOutcome[],
): Promise<void> {
  if (outcomes.length === 0) return;
  const stale = new Set<string>();
  for (const outcome of outcomes) {
    stale.add(outcome.entity);
    for (const other of outcome.touches ?? []) stale.add(other);
  }
  for (const name of stale) await entity.resultCache.invalidate(name);
  const events = outcomes.flatMap((outcome) => {
    const event = eventOf(outcome, outcome.settings ?? settings);
    return event ? [event] : [];
  });
  // Delivered once the writes are readable where reads go (a replica that has replayed them), so a subscriber that
  // reads the row on an event finds it.
  if (events.length > 0) entity.publisher.publish(events, settings, entity.adapter.routing?.readable());
}

/** The event of an outcome, when it is one and the operation's resolved `realtime` lets it out. */
export function eventOf(outcome: WriteOutcome, settings: ResolvedSettings): RealtimeEvent | undefined {
  const realtime = settings.realtime;
  if (!outcome.event || !outcome.key || realtime === false || realtime.events[outcome.event] === false)
    return undefined;
  const values = Object.values(outcome.key);
  const id = values.length === 1 ? values[0] : values.join(',');
  const deleted = outcome.event === 'deleted';
  const event: RealtimeEvent = {
    event: outcome.event,
    entity: outcome.entity,
    id,
    channel: `${outcome.entity}.${String(id)}`,
    occurredAt: new Date().toISOString(),
    item: deleted ? null : subscribable(outcome.after ?? null, realtime.subscribableFields),
    ...(outcome.changed ? { changed: subscribableNames(outcome.changed, realtime.subscribableFields) } : {}),
  };
  // Who may see it is decided against the stored row: the one deleted, or the one written.
  attachEventSubject(event, deleted ? outcome.stored?.before : outcome.stored?.after);
  return event;
}

type Subscribable = NonNullable<RealtimeSettings['subscribableFields']>;

/** The item narrowed to `realtime.subscribableFields` (after `select.fields`, which made it). */
function subscribable(
  item: Readonly<Record<string, unknown>> | null,
  fields: Subscribable | undefined,
): Readonly<Record<string, unknown>> | null {
  if (!item || !fields) return item;
  const keep = new Set(subscribableNames(Object.keys(item), fields));
  return Object.fromEntries(Object.entries(item).filter(([field]) => keep.has(field)));
}

function subscribableNames(names: readonly string[], fields: Subscribable | undefined): string[] {
  if (!fields) return [...names];
  if (Array.isArray(fields)) return names.filter((name) => fields.includes(name));
  const exclude = (fields as { readonly exclude: readonly string[] }).exclude;
  return names.filter((name) => !exclude.includes(name));
}

/** afterCommit: consumes the call's outcomes; it runs even when a stage after the commit failed. */
export const afterCommitStage = stage('afterCommit', { phase: 'afterCommit', always: true }, (call) =>
  afterCommit(call.entity, call.settings, call.outcomes),
);
