/**
 * `GET /health`: the readiness check a load balancer polls. 200 while the database answers and, when the app shares
 * its cache and events through Redis, Redis too; 503 naming what is down otherwise. It is bounded (1 s for the
 * database, a command timeout for Redis), so a dead dependency is reported, never waited on.
 */
import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { ApiExcludeController } from '@nestjs/swagger';
import { RedisHealthIndicator } from './redis-health.indicator';

/** How long the database has to answer `SELECT 1`. */
const DATABASE_TIMEOUT_MS = 1000;

// For the load balancer, not the API's clients: it stays out of the OpenAPI document.
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
  ) {}

  @Get()
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  check() {
    return this.health.check([
      () => this.database.pingCheck('database', { timeout: DATABASE_TIMEOUT_MS }),
      ...(this.redis.configured ? [() => this.redis.check('redis')] : []),
    ]);
  }
}
