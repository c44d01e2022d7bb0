/** The agent-tool serving suite (405s, DNS-rebinding guard, options, bootstrap), served by Nest's Fastify platform. */
import './use-fastify';
import '../mcp-serving.e2e.test';
