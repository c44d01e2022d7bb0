/** The shared relation writes suite, served by Nest's Fastify platform. */
import './use-fastify';
import '../relation-writes.e2e.test';
