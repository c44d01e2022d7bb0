/** The mapped-routes suite (Nest's route log, OPTIONS and the OpenAPI document), served by Nest's Fastify platform. */
import './use-fastify';
import '../mapped-routes.e2e.test';
