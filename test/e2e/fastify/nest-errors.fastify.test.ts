/** The shared nest errors suite, served by Nest's Fastify platform. */
import './use-fastify';
import '../nest-errors.e2e.test';
