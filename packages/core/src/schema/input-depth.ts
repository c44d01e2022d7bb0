/**
 * How deep a request's input may nest. A body (or a programmatic query or id) nested past the limit is refused with a
 * 400 before anything is read or written; the walk is iterative, so the check itself cannot overflow the stack.
 */
import { ConfigurationException } from '../errors/configuration-exception';
import { QueryInvalidException, ValidationFailedException } from '../errors/svc-exception';

/** @default 32 levels of objects and arrays, the body itself being level 1. */
export const DEFAULT_MAX_INPUT_DEPTH = 32;
/** The highest `inputLimits.maxDepth`: far below what any recursive consumer of the input (validators, drivers, JSON.stringify) can take. */
export const MAX_CONFIGURABLE_DEPTH = 1000;

export interface InputLimits {
  /** Levels of objects and arrays a body, programmatic query or id may nest. @default 32 */
  readonly maxDepth?: number;
}

/** Checks `SvcOptions.inputLimits` at bootstrap and returns the depth in force. */
export function resolveMaxInputDepth(limits: InputLimits | undefined): number {
  if (limits === undefined) return DEFAULT_MAX_INPUT_DEPTH;
  if (limits === null || typeof limits !== 'object' || Array.isArray(limits))
    throw new ConfigurationException({ path: 'inputLimits', message: 'must be { maxDepth }.' });
  for (const key of Object.keys(limits))
    if (key !== 'maxDepth')
      throw new ConfigurationException({ path: `inputLimits.${key}`, message: 'is not a known key; use maxDepth.' });
  const depth = limits.maxDepth ?? DEFAULT_MAX_INPUT_DEPTH;
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_CONFIGURABLE_DEPTH)
    throw new ConfigurationException({
      path: 'inputLimits.maxDepth',
      message: `must be an integer from 1 to ${MAX_CONFIGURABLE_DEPTH}.`,
    });
  return depth;
}

/** The first top-level field (or `/<index>`) under which `value` nests deeper than `maxDepth`, or undefined. */
export function tooDeepUnder(value: unknown, maxDepth: number): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const entries = Array.isArray(value) ? value.map((item, i) => [`/${i}`, item] as const) : Object.entries(value);
  for (const [top, child] of entries) if (nestsDeeperThan(child, maxDepth - 1)) return top;
  return undefined;
}

/**
 * Whether `value` nests objects and arrays more than `limit` levels deep, itself being level 1. Iterative, so a
 * binding can refuse a value before a recursive walk of it (a schema validator, a GraphQL coercion) exhausts the stack.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [next, depth] = pending.pop()!;
    if (next === null || typeof next !== 'object') continue;
    if (depth > limit) return true;
    for (const inner of Array.isArray(next) ? next : Object.values(next)) pending.push([inner, depth + 1]);
  }
  return false;
}

/** Refuses a body, programmatic query or id nested deeper than the limit (400, naming where). */
export function checkInputDepth(input: { body?: unknown; query?: unknown; id?: unknown }, maxDepth: number): void {
  const field = tooDeepUnder(input.body, maxDepth);
  if (field !== undefined)
    throw new ValidationFailedException([
      {
        field,
        code: 'too_deep',
        detail: `'${field}' nests objects or arrays more than ${maxDepth} levels deep (the body counts as one). Flatten it.`,
      },
    ]);
  for (const [param, value] of [
    ['query', input.query],
    ['id', input.id],
  ] as const) {
    // Wire queries are flat [name, value] text pairs; only programmatic objects can nest.
    const under = tooDeepUnder(value, maxDepth);
    if (under !== undefined)
      throw new QueryInvalidException([
        { param, code: 'too_deep', detail: `${param} nests more than ${maxDepth} levels deep under '${under}'.` },
      ]);
  }
}
