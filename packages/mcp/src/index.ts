/** Public API of @svc/mcp. */
export { SvcMcpHttpHandler } from './svc-mcp-http-handler';
export type { SvcMcpHttpOptions, SvcMcpCall } from './svc-mcp-http-handler';
export { MCP_BODY_LIMIT_BYTES, serveNodeRequest } from './node-http-bridge';
export type { NodeMcpCall } from './node-http-bridge';
export { serveMcpStdio } from './serve-mcp-stdio';
export type { ServeMcpStdioOptions, McpStdioServer } from './serve-mcp-stdio';
export { createMcpServer } from './create-mcp-server';
export type { SvcMcpServerInfo } from './create-mcp-server';
export { SvcToolset } from './svc-toolset';
export type { SvcToolsetOptions } from './svc-toolset';
export { SvcTool } from './svc-tool';
export { SvcCompactTool } from './compact-tool';
export type { SvcToolDefinition, SvcToolAnnotations } from './svc-tool';
export type { SvcToolResult } from './tool-result';
export { DESCRIBE_TOOL_NAME } from './describe-tool';
export { toolNameOf } from './tool-name';
export type { JsonSchema } from './json-schema';
