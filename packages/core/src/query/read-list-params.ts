/**
 * Reads the wire parameters of a list read into the programmatic query shape, collecting every problem; refuses those a
 * read does not take, and spells a programmatic list the wire's way.
 */
import type { QueryPairs } from './parse-query-string';
import { splitBracketKey } from './parse-query-string';
import type { QueryErrors } from '../errors/query-errors';
import { PAGINATION_PARAMS } from '../pagination/pagination-strategy';

/** The wire query after reading: still strings, filter as a null-prototype object tree. */
export interface WireListQuery {
  filter?: Record<string, unknown>;
  /** The JSON form (`filter={...}`), parsed. */
  filterJson?: unknown;
  sort?: string;
  withDeleted?: string;
  onlyDeleted?: string;
  select?: string;
  /** `search[query]`. */
  search?: string;
  include?: string;
  /** `select[<relation path>]` values by path. */
  relationSelects?: Map<string, string>;
  /** Pagination parameters (limit, offset, page[number], page[size], cursor, since), for the strategy to read. */
  paging?: Map<string, string>;
  /** `filter.params` the request sent, by parameter name. */
  params?: Map<string, string>;
}

const SCALAR_PARAMS = new Map<string, keyof WireListQuery>([
  ['sort', 'sort'],
  ['withDeleted', 'withDeleted'],
  ['onlyDeleted', 'onlyDeleted'],
  ['select', 'select'],
  ['search[query]', 'search'],
  ['include', 'include'],
]);

/** Parameters of the grammar that this version of the resource does not take (select, include, search, ...). */
const NOT_TAKEN = new Map<string, string>([
  ['include', 'include takes a comma list of relation paths: include=author,tags. Remove the brackets.'],
  ['search', 'search takes only search[query]. Remove the other search parameters.'],
  ['page', 'page takes only page[number] and page[size]. Remove the other page parameters.'],
]);

/** `filterParams`: the resource's `filter.params`, by parameter name (each its filter path). */
export function readListParams(
  pairs: QueryPairs,
  errors: QueryErrors,
  filterParams?: ReadonlyMap<string, string>,
): WireListQuery {
  const query: WireListQuery = {};
  const seen = new Set<string>();
  for (const [key, value] of pairs) {
    if (PAGINATION_PARAMS.includes(key)) {
      const paging = (query.paging ??= new Map());
      if (paging.has(key)) errors.add(key, 'repeated', `${key} is given more than once. Send it once.`);
      else paging.set(key, value);
      continue;
    }
    const scalar = SCALAR_PARAMS.get(key);
    if (scalar) {
      if (seen.has(key)) {
        errors.add(key, 'repeated', `${key} is given more than once. Send it once.`);
        continue;
      }
      seen.add(key);
      query[scalar as 'sort'] = value;
      continue;
    }
    if (filterParams?.has(key)) {
      const params = (query.params ??= new Map());
      if (params.has(key)) {
        const path = filterParams.get(key)!;
        errors.add(
          key,
          'repeated',
          `${key} is given more than once. Send it once, or send filter[${path}][in][]=<value> for each value.`,
        );
      } else params.set(key, value);
      continue;
    }
    if (key === 'filter') {
      if (query.filterJson !== undefined) {
        errors.add('filter', 'repeated', 'filter is given more than once. Send one JSON filter.');
        continue;
      }
      query.filterJson = parseJsonFilter(value, errors);
      continue;
    }
    const segments = splitBracketKey(key);
    const root = segments?.[0] ?? key.split('[')[0]!;
    if (root === 'select' && segments?.length === 2 && segments[1]) {
      const selects = (query.relationSelects ??= new Map());
      if (selects.has(segments[1])) errors.add(key, 'repeated', `${key} is given more than once. Send it once.`);
      else selects.set(segments[1], value);
    } else if (root === 'filter' && segments) {
      addBracketFilter(query, segments.slice(1), key, value, errors);
    } else if (NOT_TAKEN.has(root)) {
      errors.unsupportedParam(key, NOT_TAKEN.get(root)!);
    } else if (root === 'filter') {
      errors.add(
        key,
        'malformed',
        `${key} is not a well-formed bracket key. Write filter[<field>][<operator>]=<value>.`,
      );
    } else {
      errors.unsupportedParam(
        key,
        `${key} is not a query parameter of this resource. Remove it or check its spelling.`,
      );
    }
  }
  return query;
}

function parseJsonFilter(value: string, errors: QueryErrors): unknown {
  try {
    const parsed: unknown = JSON.parse(value);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      errors.add('filter', 'malformed', 'filter must be a JSON object, for example {"pages":{"gte":100}}.');
      return undefined;
    }
    return parsed;
  } catch {
    errors.add(
      'filter',
      'malformed',
      'filter is not valid JSON. Send a JSON object or use filter[<field>][<operator>]=<value>.',
    );
    return undefined;
  }
}

/** Places one bracket parameter into the filter tree; `[]` appends to a list. */
function addBracketFilter(query: WireListQuery, path: string[], key: string, value: string, errors: QueryErrors): void {
  if (path.length < 2 && !(path.length === 1 && path[0] === '')) {
    errors.add(key, 'malformed', `${key} needs a field and an operator: filter[<field>][<operator>]=<value>.`);
    return;
  }
  let node = (query.filter ??= Object.create(null) as Record<string, unknown>);
  const appends = path[path.length - 1] === '';
  const steps = appends ? path.slice(0, -1) : path;
  if (steps.some((step) => step === '')) {
    errors.add(
      key,
      'malformed',
      `${key} has an empty bracket in the middle. Write filter[<field>][<operator>][]=<value>.`,
    );
    return;
  }
  for (const step of steps.slice(0, -1)) {
    const next = node[step];
    if (next === undefined) node = node[step] = Object.create(null) as Record<string, unknown>;
    else if (isTree(next)) node = next;
    else return conflict(key, errors);
  }
  if (steps.length === 0) {
    errors.add(key, 'malformed', `${key} needs a field and an operator: filter[<field>][<operator>]=<value>.`);
    return;
  }
  const last = steps[steps.length - 1]!;
  const existing = node[last];
  if (appends) {
    if (existing === undefined) node[last] = [value];
    else if (Array.isArray(existing)) existing.push(value);
    else conflict(key, errors);
  } else if (existing === undefined) {
    node[last] = value;
  } else {
    errors.add(key, 'repeated', `${key} is given more than once. Use ${key}[]=... to send a list.`);
  }
}

function conflict(key: string, errors: QueryErrors): void {
  errors.add(key, 'malformed', `${key} clashes with another filter parameter on the same path.`);
}

function isTree(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Refuses every parameter the wire holds outside `kept`, each by the name the client sent it as. */
export function refuseParams(
  wire: WireListQuery,
  kept: ReadonlySet<keyof WireListQuery>,
  refuse: (param: string) => void,
) {
  for (const key of Object.keys(wire) as (keyof WireListQuery)[]) {
    if (kept.has(key) || wire[key] === undefined) continue;
    if (key === 'paging') wire.paging?.forEach((_value, param) => refuse(param));
    else if (key === 'relationSelects') wire.relationSelects?.forEach((_value, path) => refuse(`select[${path}]`));
    else if (key === 'params') wire.params?.forEach((_value, param) => refuse(param));
    else refuse(key === 'filterJson' ? 'filter' : key === 'search' ? 'search[query]' : key);
  }
}

/** A programmatic list value (`['a', 'b']`) in its wire spelling (`a,b`). */
export function joined(value: readonly string[] | string | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : (value as string | undefined);
}

/**
 * What chooses the rows a programmatic list, aggregate or count reads (`filter`, `search` and the row view), as the
 * wire query holds it.
 */
export function programmaticMatch(query: {
  readonly filter?: unknown;
  readonly search?: string;
  readonly withDeleted?: boolean;
  readonly onlyDeleted?: boolean;
}): Pick<WireListQuery, 'filterJson' | 'search' | 'withDeleted' | 'onlyDeleted'> {
  return {
    filterJson: query.filter,
    search: query.search,
    withDeleted: query.withDeleted === undefined ? undefined : String(query.withDeleted),
    onlyDeleted: query.onlyDeleted === undefined ? undefined : String(query.onlyDeleted),
  };
}
