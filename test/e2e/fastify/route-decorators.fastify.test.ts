/** The shared route decorators suite, served by Nest's Fastify platform. */
import './use-fastify';
import '../route-decorators.e2e.test';
