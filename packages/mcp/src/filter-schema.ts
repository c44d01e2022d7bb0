/** The filter argument of a list tool: core's typed filter object, kept under the tool input schema's `$defs`. */
import { type EntityDescription } from '@svc/core';
import { filterJsonSchema } from '@svc/core/spi';
import type { JsonSchema } from './json-schema';

/** Where the recursive filter schema lives inside a tool's input schema. */
export const FILTER_REF = '#/$defs/filter';

/** The `$defs.filter` schema of an entity, or undefined when nothing is filterable. */
export function filterSchema(description: EntityDescription): JsonSchema | undefined {
  return filterJsonSchema(description, FILTER_REF) as JsonSchema | undefined;
}
