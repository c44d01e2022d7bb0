/** The shared crud operations suite, served by Nest's Fastify platform. */
import './use-fastify';
import '../crud-operations.e2e.test';
