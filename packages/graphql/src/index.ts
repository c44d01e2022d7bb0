/** Public API of @svc/graphql. */
export {};
