/** The eight standard operations' verbs, paths and success statuses (their stages are in `operation-flows.ts`). */
import type { StandardOperationId } from '../config/svc-settings';

export interface StandardRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Relative to the collection; `:id` is renamed after `identifier.field` when configured. */
  readonly path: string;
  readonly status: number;
}

export const STANDARD_ROUTES: Readonly<Record<StandardOperationId, StandardRoute>> = {
  findMany: { method: 'GET', path: '', status: 200 },
  findOne: { method: 'GET', path: ':id', status: 200 },
  createOne: { method: 'POST', path: '', status: 201 },
  updateOne: { method: 'PUT', path: ':id', status: 200 },
  patchOne: { method: 'PATCH', path: ':id', status: 200 },
  deleteOne: { method: 'DELETE', path: ':id', status: 204 },
  restoreOne: { method: 'PATCH', path: ':id/restore', status: 200 },
  purgeOne: { method: 'DELETE', path: ':id/purge', status: 204 },
};
