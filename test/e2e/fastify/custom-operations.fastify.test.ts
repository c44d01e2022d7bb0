/** The shared custom operations suite, served by Nest's Fastify platform. */
import './use-fastify';
import '../custom-operations.e2e.test';
