/** The realtime events suite, served by Nest's Fastify platform. */
import './use-fastify';
import '../realtime-events.e2e.test';
