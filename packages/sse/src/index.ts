/** @svc/sse: every public export, by name. */
export { sse, SseTransport, SSE_HEADERS } from './sse-transport';
export type { SseOptions, SseStreamArgs } from './sse-transport';
export type { SseConnection } from './sse-connection';
export { EventBuffer } from './event-buffer';
export type { EventLog, LoggedEvent, LoggedEventsSince, LoggedGap } from './event-log';
