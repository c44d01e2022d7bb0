/** The shared conditional requests suite, served by Nest's Fastify platform. */
import './use-fastify';
import '../conditional-requests.e2e.test';
