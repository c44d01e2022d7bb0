/** The eight standard operations: their flows, verbs, paths and success statuses. */
import type { StandardOperationId } from '../config/svc-settings';
import type { ExecuteResponse, OperationCall } from '../pipeline/operation-call';
import { deleteOne, purgeOne, restoreOne } from './delete-operations';
import { findMany, findOne } from './read-operations';
import { createOne, patchOne, updateOne } from './write-operations';

export type OperationFlow = (call: OperationCall) => Promise<ExecuteResponse>;

export interface StandardRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Relative to the collection; `:id` is renamed after `identifier.field` when configured. */
  readonly path: string;
  readonly status: number;
}

export const STANDARD_FLOWS: Readonly<Record<StandardOperationId, OperationFlow>> = {
  findMany,
  findOne,
  createOne,
  updateOne,
  patchOne,
  deleteOne,
  restoreOne,
  purgeOne,
};

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
