/** The shared nest pipeline suite, served by Nest's Fastify platform. */
import './use-fastify';
import '../nest-pipeline.e2e.test';
