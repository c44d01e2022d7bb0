/** Public API of @svc/redis. */
export {};
