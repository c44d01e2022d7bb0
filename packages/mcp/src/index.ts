/** Public API of @svc/mcp. */
export {};
