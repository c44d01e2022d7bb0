/** The shared http edges suite, served by Nest's Fastify platform. */
import './use-fastify';
import '../http-edges.e2e.test';
