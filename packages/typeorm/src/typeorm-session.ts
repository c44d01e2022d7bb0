/** The AdapterSession of this adapter: the EntityManager of one open transaction. */
import type { AdapterSession } from '@svc/core/spi';
import type { EntityManager } from 'typeorm';

export class TypeOrmSession implements AdapterSession {
  readonly adapterSession = true as const;

  constructor(readonly manager: EntityManager) {}
}

/** The manager a call runs on: the session's when given, else `fallback` (outside any transaction). */
export function managerOf(session: AdapterSession | undefined, fallback: EntityManager): EntityManager {
  if (session === undefined) return fallback;
  if (session instanceof TypeOrmSession) return session.manager;
  throw new Error(
    '@svc/typeorm: the session was not opened by a TypeORM adapter. Pass the session from adapter.transaction().',
  );
}
