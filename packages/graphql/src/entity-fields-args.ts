/** What the fields of one entity are built from: its plan, its types, its inputs, and how a call gets its context. */
import type { GraphQLObjectType } from 'graphql';
import type { SvcContext } from '@svc/core';
import type { OperationGate } from '@svc/core/spi';
import type { EntityPlan } from './entity-plan';
import type { FilterInput } from './filter-types';
import type { SvcErrorListener } from './graphql-errors';
import type { SchemaTypes } from './schema-types';
import type { WriteInput, WriteSlot } from './write-input-types';

export interface EntityFieldsArgs {
  readonly plan: EntityPlan;
  readonly plans: ReadonlyMap<string, EntityPlan>;
  readonly object: GraphQLObjectType;
  /** `<Entity>List`, when the list is on. */
  readonly list?: GraphQLObjectType;
  readonly filter?: FilterInput;
  readonly writes: Partial<Record<WriteSlot, WriteInput>>;
  /** The schema's named types, for the types a field answers with (a batch's result). */
  readonly types: SchemaTypes;
  /** The engine's context from GraphQL's context value. */
  readonly contextOf: (contextValue: unknown) => SvcContext;
  /** Asked before each operation runs (the REST route's guards, in Nest). */
  readonly gate?: OperationGate;
  readonly onError?: SvcErrorListener;
}
