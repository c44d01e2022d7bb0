/** The agent-tool suite (Streamable HTTP), served by Nest's Fastify platform. */
import './use-fastify';
import '../mcp-tools.e2e.test';
