/** The aggregates suite (GET /aggregate, the service and the agent tool), served by Nest's Fastify platform. */
import './use-fastify';
import '../aggregates.e2e.test';
