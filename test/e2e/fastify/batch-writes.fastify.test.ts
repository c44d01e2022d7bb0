/** The batch writes suite (createMany, updateMany, deleteMany), served by Nest's Fastify platform. */
import './use-fastify';
import '../batch-writes.e2e.test';
