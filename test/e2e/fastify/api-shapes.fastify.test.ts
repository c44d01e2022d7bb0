/** The shared API shapes suite (envelope, errors.format, filter.params), served by Nest's Fastify platform. */
import './use-fastify';
import '../api-shapes.e2e.test';
