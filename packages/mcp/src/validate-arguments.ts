/**
 * Checks a tool call's arguments against the tool's own input schema (the JSON Schema subset the tools are written
 * in), so a wrong type, an unknown key, an operator a field does not allow or an exceeded bound is refused before the
 * engine runs, with one entry per problem naming the argument by its path (`filter.pages.gt`, `data.title`).
 */
import {
  QueryInvalidException,
  QueryUnsupportedParamException,
  ValidationFailedException,
  type SvcErrorItem,
} from '@svc/core';
import { MAX_INPUT_DEPTH, nestsDeeperThan } from '@svc/core/spi';
import type { JsonSchema } from './json-schema';

/** One problem: the argument's dotted path, a short machine code, what is wrong. */
export interface ArgumentProblem {
  readonly path: string;
  readonly code: string;
  readonly detail: string;
}

/**
 * Levels of objects and arrays the walk below goes into at most: the arguments wrap the engine's input one level, and
 * the engine's own limit (`inputLimits.maxDepth`, 32 by default) still applies to what passes, with its own message.
 */
const MAX_ARGUMENT_DEPTH = MAX_INPUT_DEPTH + 1;

/** Every problem of `value` against `schema` (whose `$defs` resolve `$ref`s), in document order. */
export function validateArguments(schema: JsonSchema, value: unknown): ArgumentProblem[] {
  // The walk is recursive, and a recursive schema (a filter's `not`) follows the value down: a value nested past any
  // depth the engine takes is refused first, by an iterative look, before it can exhaust the stack.
  if (nestsDeeperThan(value, MAX_ARGUMENT_DEPTH))
    return [
      {
        path: '',
        code: 'too_deep',
        detail: `The arguments nest objects or arrays more than ${MAX_ARGUMENT_DEPTH} levels deep. Flatten them.`,
      },
    ];
  return problemsOf(schema, value);
}

function problemsOf(schema: JsonSchema, value: unknown): ArgumentProblem[] {
  const problems: ArgumentProblem[] = [];
  check({ root: schema, problems }, schema, value, '');
  return problems;
}

/**
 * The problems as error entries: `data.<field>` as `field`, its indexes written as the engine writes a body's paths
 * (`tags[1].create.name`, `[0].title`), anything else as `param`.
 */
export function toErrorItems(problems: readonly ArgumentProblem[]): SvcErrorItem[] {
  return problems.map(({ path, code, detail }) =>
    path.startsWith('data.')
      ? { field: path.slice('data.'.length).replace(/(^|\.)(\d+)(?=\.|$)/g, '[$2]'), code, detail }
      : { param: path === '' ? 'arguments' : path, code, detail },
  );
}

/**
 * Arguments that fail the input schema: SVC_VALIDATION_FAILED when only `data` is at fault,
 * SVC_QUERY_UNSUPPORTED_PARAM when only unknown arguments are, else SVC_QUERY_INVALID; every problem in one error.
 */
export function argumentsException(problems: readonly ArgumentProblem[]): Error {
  const items = toErrorItems(problems);
  if (problems.every((problem) => problem.path === 'data' || problem.path.startsWith('data.')))
    return new ValidationFailedException(items);
  if (problems.every((problem) => problem.code === 'unknown' && !problem.path.includes('.')))
    return new QueryUnsupportedParamException(items);
  return new QueryInvalidException(items);
}

interface Walk {
  readonly root: JsonSchema;
  readonly problems: ArgumentProblem[];
}

/** `record[key]` when `record` itself holds `key`; undefined for a name it only inherits from Object.prototype. */
function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

function join(path: string, key: string | number): string {
  return path === '' ? String(key) : `${path}.${key}`;
}

function resolve(walk: Walk, schema: JsonSchema): JsonSchema {
  const ref = schema['$ref'];
  if (typeof ref !== 'string') return schema;
  const name = ref.replace(/^#\/\$defs\//, '');
  const target = own(walk.root['$defs'] as Record<string, JsonSchema> | undefined, name);
  return target ? { ...target, ...withoutRef(schema) } : {};
}

function withoutRef(schema: JsonSchema): JsonSchema {
  const { $ref: _ref, description: _description, ...rest } = schema;
  return rest;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(expected: string, actual: string): boolean {
  return expected === actual || (expected === 'number' && actual === 'integer');
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function check(walk: Walk, raw: JsonSchema, value: unknown, path: string): void {
  const schema = resolve(walk, raw);
  const fail = (code: string, detail: string) =>
    walk.problems.push({ path, code, detail: `${path === '' ? 'The arguments' : `'${path}'`} ${detail}` });
  const options = (schema['anyOf'] ?? schema['oneOf']) as JsonSchema[] | undefined;
  if (Array.isArray(options)) {
    // Each option is checked on its own, with the `$defs` its references point into (and nothing else of the root).
    const defs = walk.root['$defs'] === undefined ? {} : { $defs: walk.root['$defs'] };
    const fits = options.some((option) => problemsOf({ ...defs, ...option }, value).length === 0);
    if (!fits) checkNamed(walk, options, value, path, fail);
    return;
  }
  const type = schema['type'];
  if (type !== undefined) {
    const types = (Array.isArray(type) ? type : [type]) as string[];
    const actual = typeOf(value);
    if (!types.some((expected) => typeMatches(expected, actual))) {
      fail(
        'type',
        `must be ${types.map((name) => (name === 'integer' ? 'an integer' : `a ${name}`)).join(' or ')}, not ${describeValue(value)}.`,
      );
      return;
    }
  }
  if (Array.isArray(schema['enum']) && !(schema['enum'] as unknown[]).some((option) => option === value)) {
    const options = (schema['enum'] as unknown[]).map((option) => JSON.stringify(option)).join(', ');
    fail('enum', `must be one of ${options}, not ${describeValue(value)}.`);
    return;
  }
  if (typeof value === 'string') checkString(schema, value, fail);
  if (typeof value === 'number') checkNumber(schema, value, fail);
  if (Array.isArray(value)) checkArray(walk, schema, value, path, fail);
  else if (typeOf(value) === 'object') checkObject(walk, schema, value as Record<string, unknown>, path, fail);
}

type Fail = (code: string, detail: string) => void;

/**
 * A value that fits none of `anyOf` or `oneOf`'s options: when it holds the required keys of exactly one of them (a
 * nested write's `{ "create": ... }`), it is held to that one, so its problems are named at their own paths.
 */
function checkNamed(walk: Walk, options: readonly JsonSchema[], value: unknown, path: string, fail: Fail): void {
  const named = options.filter((option) => namedBy(walk, option, value));
  if (named.length === 1) check(walk, named[0]!, value, path);
  else fail('invalid', `has the wrong shape (${describeValue(value)}).`);
}

/** The object holds every key the option requires (or, for an option of options, one of those options does). */
function namedBy(walk: Walk, raw: JsonSchema, value: unknown): boolean {
  if (typeOf(value) !== 'object') return false;
  const option = resolve(walk, raw);
  const inner = (option['oneOf'] ?? option['anyOf']) as JsonSchema[] | undefined;
  if (Array.isArray(inner)) return inner.some((candidate) => namedBy(walk, candidate, value));
  const required = (option['required'] as string[] | undefined) ?? [];
  return required.length > 0 && required.every((key) => Object.hasOwn(value as object, key));
}

function checkString(schema: JsonSchema, value: string, fail: Fail): void {
  const maxLength = schema['maxLength'];
  if (typeof maxLength === 'number' && value.length > maxLength)
    fail('maxLength', `is ${value.length} characters long; at most ${maxLength} are allowed.`);
  const pattern = schema['pattern'];
  if (typeof pattern === 'string' && !new RegExp(pattern).test(value))
    fail('pattern', `must match ${pattern}, not ${describeValue(value)}.`);
}

function checkNumber(schema: JsonSchema, value: number, fail: Fail): void {
  const minimum = schema['minimum'];
  const maximum = schema['maximum'];
  if (typeof minimum === 'number' && value < minimum) fail('minimum', `must be at least ${minimum}, not ${value}.`);
  if (typeof maximum === 'number' && value > maximum) fail('maximum', `must be at most ${maximum}, not ${value}.`);
}

function checkArray(walk: Walk, schema: JsonSchema, value: unknown[], path: string, fail: Fail): void {
  const minItems = schema['minItems'];
  const maxItems = schema['maxItems'];
  if (typeof minItems === 'number' && value.length < minItems)
    fail('minItems', `holds ${value.length} values; it needs at least ${minItems}.`);
  if (typeof maxItems === 'number' && value.length > maxItems)
    fail('maxItems', `holds ${value.length} values; at most ${maxItems} are allowed.`);
  if (schema['uniqueItems'] === true) {
    const seen = new Set(value.map((item) => JSON.stringify(item)));
    if (seen.size !== value.length) fail('uniqueItems', 'names a value twice.');
  }
  const items = schema['items'] as JsonSchema | undefined;
  if (items) value.forEach((item, index) => check(walk, items, item, join(path, index)));
}

function checkObject(walk: Walk, schema: JsonSchema, value: Record<string, unknown>, path: string, fail: Fail): void {
  const properties = (schema['properties'] as Record<string, JsonSchema> | undefined) ?? {};
  const keys = Object.keys(value);
  for (const name of (schema['required'] as string[] | undefined) ?? []) {
    if (own(value, name) === undefined)
      walk.problems.push({ path: join(path, name), code: 'required', detail: `'${join(path, name)}' is required.` });
  }
  const minProperties = schema['minProperties'];
  if (typeof minProperties === 'number' && keys.length < minProperties)
    fail('minProperties', `must hold at least ${minProperties} key${minProperties === 1 ? '' : 's'}.`);
  for (const key of keys) {
    // Own names only: `toString`, `constructor` or `__proto__` are not declared arguments because every object inherits them.
    const property = own(properties, key);
    if (property) {
      if (value[key] !== undefined) check(walk, property, value[key], join(path, key));
    } else if (schema['additionalProperties'] === false) {
      const known = Object.keys(properties);
      walk.problems.push({
        path: join(path, key),
        code: 'unknown',
        detail: `'${join(path, key)}' is not allowed here.${known.length > 0 ? ` Allowed: ${known.join(', ')}.` : ''}`,
      });
    }
  }
}
