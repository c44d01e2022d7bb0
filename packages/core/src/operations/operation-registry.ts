/**
 * The registry of standard operations: the one list every surface reads, in the order they are described. An
 * operation's facts and stages are in its own file under `definitions/`; nothing else names it.
 */
import type { OperationFacts } from '../config/operation-facts';
import type { OperationDefinition } from './operation-definition';
import { createOne } from './definitions/create-one';
import { deleteOne } from './definitions/delete-one';
import { findMany } from './definitions/find-many';
import { findOne } from './definitions/find-one';
import { patchOne } from './definitions/patch-one';
import { purgeOne } from './definitions/purge-one';
import { restoreOne } from './definitions/restore-one';
import { updateOne } from './definitions/update-one';
import { createMany } from './definitions/create-many';
import { updateMany } from './definitions/update-many';
import { deleteMany } from './definitions/delete-many';
import { aggregate } from './definitions/aggregate';
import { count } from './definitions/count';

export const STANDARD_OPERATIONS: readonly OperationDefinition[] = [
  createOne,
  findOne,
  findMany,
  updateOne,
  patchOne,
  deleteOne,
  restoreOne,
  purgeOne,
  createMany,
  updateMany,
  deleteMany,
  aggregate,
  count,
];

const BY_ID: ReadonlyMap<string, OperationDefinition> = new Map(STANDARD_OPERATIONS.map((d) => [d.id, d]));

/** The standard operation of this id, if it is one. */
export function definitionOf(id: string): OperationDefinition | undefined {
  return BY_ID.get(id);
}

/** The facts of every standard operation, by id: what the bootstrap checks and the entity resolution are handed. */
export const OPERATION_FACTS: ReadonlyMap<string, OperationFacts> = BY_ID;
