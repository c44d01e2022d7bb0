/** Redis as the app's Svc parts see it, for the readiness check. */
import { Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { ScaleOut } from '../redis-scale-out';

type PartStatus = 'up' | 'down';

/**
 * Asks each Redis part of the app (the result-cache store, the SSE event log) whether Redis answers it now, over the
 * part's own connection: what the check reports is what Svc sees. Each ask is bounded by the part's command timeout
 * (250 ms) and never throws, so a Redis that is down or slow makes the check answer `down` promptly, never hang.
 */
@Injectable()
export class RedisHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly scaleOut: ScaleOut,
  ) {}

  /** The app shares through Redis (it has a Redis URL); without one there is nothing to check. */
  get configured(): boolean {
    return this.scaleOut.cache !== undefined || this.scaleOut.events !== undefined;
  }

  /** `up` with each part's status when every part reaches Redis; `down` naming the parts that do not, and the cost. */
  async check<const Key extends string>(key: Key): Promise<HealthIndicatorResult<Key>> {
    const indicator = this.indicators.check(key);
    const [cache, events] = await Promise.all([this.scaleOut.cache?.ping(), this.scaleOut.events?.ping()]);
    const parts: Record<string, PartStatus> = {};
    if (cache !== undefined) parts['cache'] = cache ? 'up' : 'down';
    if (events !== undefined) parts['events'] = events ? 'up' : 'down';
    if (cache === false || events === false) {
      // Svc keeps serving meanwhile: the answer says what degrades, so whoever reads it knows the API still answers.
      const costs = [
        cache === false ? 'reads are served uncached' : undefined,
        events === false ? "events reach only this instance's subscribers" : undefined,
      ].filter((cost) => cost !== undefined);
      return indicator.down({ ...parts, message: `Redis does not answer: ${costs.join(', and ')}.` });
    }
    return indicator.up(parts);
  }
}
