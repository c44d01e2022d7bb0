/**
 * A property check of an OpenAPI document against the app that serves it: requests generated from the document
 * itself (valid filters, sorts, selects, includes, paging and bodies, for each operation) must be answered 2xx or a
 * 4xx the operation documents, and every 2xx body must match the documented response schema (Ajv, JSON Schema
 * 2020-12, what OpenAPI 3.1 embeds).
 */
import { createRequire } from 'node:module';
import request from 'supertest';
import { dereferenced } from './openapi-checks';

type Server = Parameters<typeof request>[0];

/** The members of a JSON Schema the generator reads. */
export interface Schema {
  readonly type?: string | string[];
  readonly enum?: unknown[];
  readonly format?: string;
  readonly maxLength?: number;
  readonly maximum?: number;
  readonly required?: string[];
  readonly properties?: Record<string, Schema>;
  readonly items?: Schema;
  readonly oneOf?: Schema[];
  readonly anyOf?: Schema[];
  readonly allOf?: Schema[];
  readonly not?: Schema;
}

export interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required?: boolean;
  readonly schema?: Schema;
  /** A parameter sent as JSON (a filter's JSON form). */
  readonly content?: Record<string, { readonly schema: Schema }>;
}

export interface Operation {
  readonly operationId: string;
  readonly parameters?: Parameter[];
  readonly requestBody?: { readonly content: Record<string, { readonly schema: Schema }> };
  readonly responses: Record<string, { readonly content?: Record<string, { readonly schema: Schema }> }>;
}

export interface OpenApiPaths {
  readonly paths: Record<string, Record<string, Operation>>;
}

type Validate = ((data: unknown) => boolean) & { readonly errors?: unknown };

/** Ajv 2020, as @apidevtools/swagger-parser depends on it (formats are not asserted). */
export function createAjv(): { compile(schema: Schema): Validate } {
  const fromParser = createRequire(require.resolve('@apidevtools/swagger-parser'));
  const Ajv2020 = fromParser('ajv/dist/2020') as { default: new (options: object) => { compile(s: Schema): Validate } };
  return new Ajv2020.default({ strict: false, validateFormats: false, allErrors: true });
}

export interface ExerciseResult {
  /** Requests sent. */
  readonly requests: number;
  /** Each answer that is neither 2xx nor a documented 4xx, or a 2xx body that does not match its schema. */
  readonly failures: readonly string[];
  /** How many answers had each status. */
  readonly statuses: ReadonlyMap<number, number>;
  /** The documented 4xx answers: request, status and problem code. */
  readonly refused: readonly string[];
}

/** Reads first, then creates, replaces and changes, then deletes (restore and purge follow a delete). */
const ORDER = ['get', 'post', 'put', 'patch', 'delete'];

/** Sends requests and keeps score: failures, statuses, documented refusals, bodies checked against schemas. */
class Checker {
  readonly failures: string[] = [];
  readonly statuses = new Map<number, number>();
  readonly refused: string[] = [];
  requests = 0;
  private readonly ajv = createAjv();
  private readonly validators = new Map<Schema, Validate>();

  /** `success`: the request must be answered 2xx (a read the document allows has no reason to fail). */
  async check(label: string, op: Operation, send: () => request.Test, success = false): Promise<request.Response> {
    this.requests++;
    const response = await send();
    this.statuses.set(response.status, (this.statuses.get(response.status) ?? 0) + 1);
    const documented = op.responses[String(response.status)];
    const ok = response.status >= 200 && response.status < 300;
    if (!ok && (success || !(response.status >= 400 && response.status < 500 && documented))) {
      this.failures.push(`${label}: ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
    }
    if (ok && !documented) this.failures.push(`${label}: ${response.status} is not documented`);
    if (!ok) {
      const problem = response.body as { code?: string; detail?: string; errors?: { detail?: string }[] };
      const details = problem.errors?.map((item) => item.detail).join(' ') ?? problem.detail ?? '';
      this.refused.push(`${label}: ${response.status} ${problem.code ?? ''} ${details}`.slice(0, 300));
    }
    const schema = documented?.content?.['application/json']?.schema;
    if (ok && schema && response.text !== '') this.validate(label, schema, response.body);
    return response;
  }

  private validate(label: string, schema: Schema, body: unknown): void {
    let validate = this.validators.get(schema);
    if (!validate) this.validators.set(schema, (validate = this.ajv.compile(schema)));
    if (!validate(body)) {
      this.failures.push(`${label}: the body does not match: ${JSON.stringify(validate.errors).slice(0, 400)}`);
    }
  }
}

/** Values a schema admits: strings unique (a counter first, so a length bound never makes two alike). */
class ValueGenerator {
  private counter = 0;

  /** Integers are 1 (an id that exists) unless the name says otherwise. */
  valueOf(schema: Schema, name: string): unknown {
    if (schema.oneOf) return this.valueOf(schema.oneOf[0]!, name);
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (schema.enum) return schema.enum.find((value) => value !== null);
    if (types.includes('integer')) return name === 'rating' ? 4 : 1;
    if (types.includes('number')) return 4.5;
    if (types.includes('boolean')) return true;
    if (types.includes('string')) return this.stringOf(schema, name);
    if (types.includes('object')) return this.bodyOf(schema, true);
    if (types.includes('array')) return schema.items ? [this.valueOf(schema.items, name)] : [];
    return null;
  }

  private stringOf(schema: Schema, name: string): string {
    if (schema.format === 'date-time') return new Date().toISOString();
    if (schema.format === 'date') return '2026-01-01';
    if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000001';
    return `${++this.counter} ${name}`.slice(0, schema.maxLength ?? 40);
  }

  /** A body of the required members (`all`: of every member), holding one of each `not both` pair. */
  bodyOf(schema: Schema, all: boolean): unknown {
    if (schema.type === 'array') return this.valueOf(schema, 'member');
    const body: Record<string, unknown> = {};
    const required = new Set(schema.required ?? []);
    const properties = Object.entries(schema.properties ?? {});
    for (const [name, property] of properties) {
      if (all || required.has(name)) body[name] = this.valueOf(property, name);
    }
    // `not: { required: [a, b] }`: a body holds one of the two (a reference or its foreign-key column), never both.
    for (const rule of schema.allOf ?? []) {
      const pair = rule.not?.required;
      if (pair && pair.every((name) => name in body)) delete body[pair[0]!];
    }
    if (Object.keys(body).length === 0 && properties[0]) {
      body[properties[0][0]] = this.valueOf(properties[0][1], properties[0][0]);
    }
    return body;
  }
}

/** A value of a row for one bracket filter parameter, or undefined when the row gives none. */
function filterValue(parameter: Parameter, row: Record<string, unknown>): string | undefined {
  const [, field, operator] = /^filter\[(\w+)\]\[(\w+)\]$/.exec(parameter.name) ?? [];
  if (!field || !operator) return undefined;
  if (operator === 'isNull' || operator === 'isNotNull') return 'true';
  const value = row[field];
  if (value === null || value === undefined || typeof value === 'object') return undefined;
  if (['contains', 'startsWith', 'endsWith', 'like', 'ilike'].includes(operator)) return String(value).slice(0, 3);
  if (operator === 'between') return `${String(value)},${String(value)}`;
  return String(value);
}

/** The query variants of a read: none, each filter, each sort key, each select field, each include, paging. */
function readQueries(op: Operation, row: Record<string, unknown>): Record<string, string>[] {
  const queries: Record<string, string>[] = [{}];
  for (const parameter of op.parameters ?? []) {
    // A parameter sent as JSON (the filter's JSON form) has `content`, not `schema`: its own suites send it.
    if (parameter.in !== 'query' || !parameter.schema) continue;
    // A list whose items are one of several enums (an aggregate's sort): the first holds the keys every call takes.
    const items = parameter.schema.items?.enum ?? parameter.schema.items?.anyOf?.[0]?.enum;
    if (parameter.name.startsWith('filter[')) {
      const value = filterValue(parameter, row);
      if (value !== undefined) queries.push({ [parameter.name]: value });
    } else if (items) {
      for (const item of items) queries.push({ [parameter.name]: String(item) });
      // Two different fields (sort keys come in pairs: `title`, `-title`).
      const two = parameter.name === 'sort' ? [items[0], items[2]] : items.slice(0, 2);
      if (two.every((item) => item !== undefined)) queries.push({ [parameter.name]: two.join(',') });
    } else if (parameter.name === 'search[query]') {
      queries.push({ [parameter.name]: 'the' });
    } else if (parameter.name === 'limit' || parameter.name === 'page[size]') {
      queries.push({ [parameter.name]: String(parameter.schema.maximum ?? 5) }, { [parameter.name]: '1' });
    } else if (parameter.name === 'offset' || parameter.name === 'page[number]') {
      queries.push({ [parameter.name]: '1' });
    } else if (parameter.schema.type === 'boolean') {
      queries.push({ [parameter.name]: 'true' });
    }
  }
  return queries;
}

/** The path with its parameters filled from a sampled row (`{memberId}`: 1), or undefined when the row lacks one. */
function pathOf(template: string, row: Record<string, unknown>): string | undefined {
  let missing = false;
  const path = template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = name === 'memberId' ? 1 : row[name];
    if (value === undefined || value === null) missing = true;
    return encodeURIComponent(String(value));
  });
  return missing ? undefined : path;
}

/**
 * Sends, for each operation of the document, the requests it allows (every read variant; each write with its
 * required fields, then with all of them) and checks each answer.
 */
export async function exerciseDocument(options: {
  readonly server: Server;
  readonly document: OpenApiPaths;
  /** Headers of every write (the caller's credentials). */
  readonly writeHeaders?: Record<string, string>;
}): Promise<ExerciseResult> {
  const { server, document } = options;
  const checker = new Checker();
  const values = new ValueGenerator();
  const send = (method: string, path: string, query: Record<string, string>, body?: unknown) => {
    const agent = request(server);
    const call = method === 'get' ? agent.get(path) : agent[method as 'post'](path).set(options.writeHeaders ?? {});
    return body === undefined ? call.query(query) : call.query(query).send(body as object);
  };
  const sampleRow = async (collection: string) =>
    ((await request(server).get(`/${collection}`)).body as { items?: Record<string, unknown>[] }).items?.[0] ?? {};

  // Routes refer to the named schemas (`components.schemas`); the checks read them inlined.
  const inlined = dereferenced(document);
  const operations = Object.entries(inlined.paths)
    .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })))
    .filter(({ path, op }) => !path.endsWith('/restore') && !path.endsWith('/purge') && !streams(op))
    .sort((a, b) => ORDER.indexOf(a.method) - ORDER.indexOf(b.method));
  for (const { path, method, op } of operations) {
    const collection = path.split('/')[1]!;
    const row = await sampleRow(collection);
    const target = pathOf(path, row);
    if (!target) continue;
    // Required query parameters get a value: the member ids of a removal, and a batch's JSON filter (the sampled row).
    const required: Record<string, string> = {};
    for (const parameter of op.parameters ?? []) {
      if (parameter.in !== 'query' || !parameter.required) continue;
      required[parameter.name] = parameter.content ? JSON.stringify({ id: { eq: row['id'] } }) : '1';
    }
    if (method === 'get') {
      for (const query of readQueries(op, row)) {
        const all = { ...required, ...query };
        await checker.check(`GET ${target}?${new URLSearchParams(all)}`, op, () => send('get', target, all), true);
      }
      continue;
    }
    const schema = op.requestBody?.content['application/json']?.schema;
    const bodies = schema ? [values.bodyOf(schema, false), values.bodyOf(schema, true)] : [undefined];
    for (const body of bodies) {
      // Sampled again: the body before may have renamed the row (a lookup by identifier).
      const at = pathOf(path, await sampleRow(collection)) ?? target;
      const label = `${method.toUpperCase()} ${at} ${JSON.stringify(body)}`;
      await checker.check(label, op, () => send(method, at, required, body));
    }
    const restore = inlined.paths[`${path}/restore`]?.['patch'];
    const purge = inlined.paths[`${path}/purge`]?.['delete'];
    if (method === 'delete' && restore && purge) {
      // The row just soft-deleted: restored, deleted again, purged.
      await checker.check(`PATCH ${target}/restore`, restore, () => send('patch', `${target}/restore`, {}), true);
      await send('delete', target, {});
      await checker.check(`DELETE ${target}/purge`, purge, () => send('delete', `${target}/purge`, {}), true);
    }
  }
  const { requests, failures, statuses, refused } = checker;
  return { requests, failures, statuses, refused };
}

/** An operation that answers a stream (Server-Sent Events): a request would not end. */
function streams(op: Operation): boolean {
  return Object.values(op.responses).some((response) => response.content?.['text/event-stream'] !== undefined);
}
