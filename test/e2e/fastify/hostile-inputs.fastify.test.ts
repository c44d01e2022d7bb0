/** The shared hostile-inputs suite, served by Nest's Fastify platform. */
import './use-fastify';
import '../hostile-inputs.e2e.test';
