/** The readiness check at `/health`: terminus, the database through TypeORM, and the app's Redis parts. */
import { Module, type DynamicModule } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { ScaleOut } from '../redis-scale-out';
import { HealthController } from './health.controller';
import { RedisHealthIndicator } from './redis-health.indicator';

@Module({})
export class HealthModule {
  /** The check of an app whose Redis parts are `scaleOut`: the instances Svc serves through, not copies. */
  static forRoot(scaleOut: ScaleOut): DynamicModule {
    return {
      module: HealthModule,
      // A failing check answers 503 naming what is down, and @svc/redis reports a Redis outage once: a log line per
      // probe (every few seconds from a load balancer) would bury that report.
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [HealthController],
      providers: [{ provide: ScaleOut, useValue: scaleOut }, RedisHealthIndicator],
    };
  }
}
