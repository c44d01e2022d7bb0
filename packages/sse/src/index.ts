/** Public API of @svc/sse. */
export {};
