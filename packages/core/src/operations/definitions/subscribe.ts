/**
 * subscribe: `GET /events`, a subscription to the entity's realtime events (Server-Sent Events where a transport
 * serves them). It reads like the list: the list's route guards, its allowlists for the filter, its policy. These
 * steps run in order before the stream opens; each event is then admitted per subscriber.
 */
import { SvcException } from '../../errors/svc-exception';
import type { ResolvedEntity } from '../../entity/resolved-entity';
import { roleView } from '../../query/related-reach';
import {
  listAllowed,
  readSubscriptionQuery,
  realtimeEventsOf,
  subscriptionOf,
  type RealtimeSubscription,
  type SubscribeOptions,
} from '../realtime-subscription';

export const subscribe = Object.freeze({
  /** Its name in the route table (it runs no stage list: it opens a stream). */
  id: 'events',
  route: { method: 'GET', path: 'events' } as const,
  open,
});

/**
 * realtimeOn (404 where the entity publishes no events), listServed (405 where its list is off), query (the filter
 * against the allowlists of the list the caller's role is served, and `id`: 400), policy (the list's, for this
 * context: 403), then the subscription.
 */
async function open(entity: ResolvedEntity, options: SubscribeOptions = {}): Promise<RealtimeSubscription> {
  const events = realtimeEventsOf(entity);
  if (events.length === 0) {
    throw new SvcException('SVC_ROUTE_NOT_FOUND', {
      detail: `${entity.name} publishes no realtime events. Turn realtime on for it to subscribe.`,
    });
  }
  const listing = entity.listOperation;
  if (!listing || listing.state !== 'on' || !listing.list) {
    throw new SvcException('SVC_OPERATION_DISABLED', {
      detail: `Subscribing to ${entity.name} events reads like ${listing?.id ?? 'its list'}, which is disabled here.`,
    });
  }
  const context = options.context ?? {};
  // Read against the list of the caller's role (`access`): a column the role may not read is unknown to its filter.
  const served = roleView(entity, context).listOperation?.list ?? listing.list;
  const { filter, id } = readSubscriptionQuery(options.query, served);
  if (!(await listAllowed(listing, context))) {
    throw new SvcException('SVC_FORBIDDEN', { detail: `You may not read ${entity.name} rows, so not their events.` });
  }
  return subscriptionOf({ entity, events, listing, context, filter, id });
}
