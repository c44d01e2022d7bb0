/**
 * Decorates the generated route methods of Svc's controllers with the metadata `@nestjs/swagger` reads when an app
 * builds its document (`SwaggerModule.createDocument`), derived from each entity's description once the module has
 * initialised. `@nestjs/swagger` is an optional peer: without it this does nothing.
 */
import { loadOptionalPeer } from '../optional-peer';
import type {
  ApiExcludeController,
  ApiExcludeEndpoint,
  ApiHeader,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiExtraModels,
  ApiResponse,
  ApiSchema,
  ApiTags,
} from '@nestjs/swagger';
import type { EntityDescription, OperationDescription, ResolvedEnvelope } from '@svc/core';
import { envelopePlanOf } from '../rest-envelope';
import { filterParamParameters } from './openapi-envelope';
import { eventsOperation } from './openapi-events';
import { operationIdOf } from './operation-names';
import { parametersOf } from './openapi-parameters';
import { responsesOf } from './openapi-responses';
import { requestBodyOf } from './openapi-request-body';
import { DocumentSchemas, type JsonSchema } from './openapi-components';

/** One Svc controller and the description of the entity it serves. */
export interface DocumentedController {
  readonly controller: Function;
  readonly description: EntityDescription;
  /** What the REST routes do beyond the description: the entity's `envelope`, and each read's `filter.params`. */
  readonly rest?: RestShape;
}

/** The REST-only shape of an entity's routes. */
export interface RestShape {
  readonly envelope?: ResolvedEnvelope;
  readonly filterParams: (operation: string) => ReadonlyMap<string, string> | undefined;
}

export interface ApplyOpenApiOptions {
  /** An SSE transport serves the `events` routes of the entities whose realtime is on. */
  readonly streams: boolean;
}

type Decorator = (target: object, key: string | symbol, descriptor: PropertyDescriptor) => unknown;

/** The part of `@nestjs/swagger` Svc uses (its types only: the package itself is loaded when installed). */
interface Swagger {
  readonly ApiOperation: typeof ApiOperation;
  readonly ApiParam: typeof ApiParam;
  readonly ApiQuery: typeof ApiQuery;
  readonly ApiHeader: typeof ApiHeader;
  readonly ApiResponse: typeof ApiResponse;
  readonly ApiExcludeEndpoint: typeof ApiExcludeEndpoint;
  readonly ApiExcludeController: typeof ApiExcludeController;
  readonly ApiTags: typeof ApiTags;
  readonly ApiSchema: typeof ApiSchema;
  readonly ApiExtraModels: typeof ApiExtraModels;
}

/** Metadata keys `@nestjs/swagger` stores a route's operation and responses under. */
const API_OPERATION = 'swagger/apiOperation';
const API_RESPONSE = 'swagger/apiResponse';
const API_TAGS = 'swagger/apiUseTags';

/** An optional peer: loaded by name at run time, so apps without it build and boot as before. */
const SWAGGER_PACKAGE = '@nestjs/swagger';

/** Loads `@nestjs/swagger` when the app has it installed, once (an app without it has nothing to document for). */
let swagger: Swagger | null | undefined;
function loadSwagger(): Swagger | undefined {
  if (swagger === undefined) swagger = loadOptionalPeer<Swagger>(SWAGGER_PACKAGE) ?? null;
  return swagger ?? undefined;
}

/** Route methods already documented: a controller class booted by several apps is decorated once. */
const documented = new WeakSet<Function>();

/**
 * Documents every generated route of `controllers` (standard, custom and relation routes, and the events stream),
 * hides the OPTIONS routes and those of operations not served, and gives operation ids unique across the app.
 */
export function applyOpenApi(controllers: readonly DocumentedController[], options: ApplyOpenApiOptions): void {
  const api = loadSwagger();
  if (!api) return;
  const byName = new Map<string, EntityDescription>();
  for (const { description } of controllers) {
    if (!byName.has(description.name)) byName.set(description.name, description);
  }
  const lookup = (name: string) => byName.get(name);
  const context = { api, lookup, taken: new Set<string>(), schemas: new DocumentSchemas() };
  // A controller decorated by an earlier app keeps the components its routes refer to: they are named first here, so
  // a controller new to this app cannot take one of those names for another shape.
  for (const { controller } of controllers) context.schemas.seed(claimed.get(controller) ?? []);
  for (const { controller, description, rest } of controllers) {
    tagController(api, controller);
    const handled = documentOperations(context, controller, description, rest);
    documentOtherRoutes(context, controller, description, { handled, streams: options.streams });
  }
  for (const { controller } of controllers)
    if (!claimed.has(controller)) claimed.set(controller, context.schemas.entries());
  const first = controllers[0]?.controller;
  if (first) nameSchemas(api, first, context.schemas);
}

/** The named components each documented controller's routes may refer to, from the app that decorated it. */
const claimed = new WeakMap<Function, readonly [string, JsonSchema][]>();

/**
 * Puts the named schemas in the document's `components.schemas`: `@nestjs/swagger` adds there the models a controller
 * lists with `@ApiExtraModels`, under the name and with the members `@ApiSchema` gives, so each named schema becomes
 * a model class of its own whose `@ApiSchema` carries the whole schema.
 */
function nameSchemas(api: Swagger, controller: Function, schemas: DocumentSchemas): void {
  const models = schemas.entries().map(([name, schema]) => {
    const model = class {};
    Object.defineProperty(model, 'name', { value: `Svc${name}Schema` });
    api.ApiSchema({ ...schema, name } as Parameters<Swagger['ApiSchema']>[0])(model);
    return model;
  });
  if (models.length > 0) api.ApiExtraModels(...models)(controller);
}

interface DocumentingContext {
  readonly api: Swagger;
  readonly lookup: (name: string) => EntityDescription | undefined;
  /** Operation ids given so far in this app. */
  readonly taken: Set<string>;
  /** The named schemas the routes refer to. */
  readonly schemas: DocumentSchemas;
}

/** The routes of the described operations (a removal also by `/:memberId`); returns the method names handled. */
function documentOperations(
  context: DocumentingContext,
  controller: Function,
  description: EntityDescription,
  rest: RestShape | undefined,
): Set<string> {
  const { api, taken, schemas } = context;
  const prototype = controller.prototype as Record<string, unknown>;
  const handled = new Set<string>();
  const owner = ownerOf(controller);
  for (const operation of description.operations) {
    if (!operation.route) continue;
    const forms = [{ path: operation.route.path, member: false }];
    if (operation.relation?.action === 'remove')
      forms.push({ path: `${operation.route.path}/:memberId`, member: true });
    for (const form of forms) {
      const name = methodNameOf(operation.route.method, form.path);
      if (typeof prototype[name] !== 'function') continue;
      handled.add(name);
      if (operation.state !== 'on') {
        decorate(prototype, name, () => [api.ApiExcludeEndpoint()]);
        continue;
      }
      const id = uniqueId(operationIdOf(description.name, operation, form.member), controller, taken);
      decorate(prototype, name, (method) =>
        decoratorsOf(api, method, {
          description,
          operation,
          path: form.path,
          id,
          schemas,
          owner,
          // A removal's `/:memberId` names its one member in the path, in place of `?ids=`.
          standsIn: form.member ? ['ids'] : [],
          rest,
        }),
      );
    }
  }
  return handled;
}

/**
 * The other generated routes: `GET events` where a stream is served; hidden otherwise (it is then the findOne of the
 * id `events`, documented as such), as are OPTIONS routes and routes of operations the entity does not serve
 * (restore and purge on a hard delete).
 */
function documentOtherRoutes(
  context: DocumentingContext,
  controller: Function,
  description: EntityDescription,
  options: { readonly handled: ReadonlySet<string>; readonly streams: boolean },
): void {
  const { api, taken, schemas } = context;
  const prototype = controller.prototype as Record<string, unknown>;
  const streams = options.streams && description.realtime !== undefined;
  const eventsMethod = methodNameOf('GET', description.realtime?.path ?? 'events');
  for (const name of Object.getOwnPropertyNames(prototype)) {
    if (options.handled.has(name) || !/^svc[A-Z_]/.test(name) || typeof prototype[name] !== 'function') continue;
    if (!streams || name !== eventsMethod) {
      decorate(prototype, name, () => [api.ApiExcludeEndpoint()]);
      continue;
    }
    const events = eventsOperation({ description, schemas, owner: ownerOf(controller) });
    const id = uniqueId(events.operationId, controller, taken);
    decorate(prototype, name, () => [
      api.ApiOperation({ operationId: id, summary: events.summary }),
      ...events.parameters.map((parameter) => (parameter.in === 'query' ? api.ApiQuery : api.ApiHeader)(parameter)),
      ...Object.entries(events.responses).map(([status, response]) =>
        api.ApiResponse({ status: Number(status), ...response }),
      ),
    ]);
  }
}

/** The method name `svc-routes` gives a generated route: `svc_<METHOD>_<path, non-word characters as _>`. */
function methodNameOf(method: string, path: string): string {
  return `svc_${method}_${path.replace(/\W/g, '_')}`;
}

/** An id another controller took already (a second controller of the same entity) gets the controller's name. */
function uniqueId(id: string, controller: Function, taken: Set<string>): string {
  let candidate = taken.has(id) ? `${id}Via${controller.name.replace(/Controller$/, '').replace(/\W/g, '')}` : id;
  for (let n = 2; taken.has(candidate); n++) candidate = `${id}${n}`;
  taken.add(candidate);
  return candidate;
}

/** A controller's name without `Controller`: `CatalogController` names its own schemas `Catalog<Name>`. */
function ownerOf(controller: Function): string {
  return controller.name.replace(/Controller$/, '').replace(/\W/g, '');
}

/** Tags per controller: the controller's own `@ApiTags`, else its name without `Controller` (as Nest's default). */
function tagController(api: Swagger, controller: Function): void {
  if (Reflect.getMetadata(API_TAGS, controller) !== undefined) return;
  api.ApiTags(controller.name.replace(/Controller$/, '') || controller.name)(controller);
}

/** Applies the decorators, once per route method, as if written on the method. */
function decorate(
  prototype: Record<string, unknown>,
  name: string,
  decoratorsFor: (method: Function) => readonly Decorator[],
): void {
  const method = prototype[name] as Function;
  if (documented.has(method)) return;
  documented.add(method);
  for (const decorator of decoratorsFor(method)) {
    decorator(prototype, name, Object.getOwnPropertyDescriptor(prototype, name)!);
  }
}

/**
 * The decorators of one operation's route. What the app declared itself on the route (through
 * `operations.<id>.meta.decorators`) wins: its `ApiOperation` keys and its responses by status are kept.
 */
function decoratorsOf(
  api: Swagger,
  method: Function,
  args: {
    readonly description: EntityDescription;
    readonly operation: OperationDescription;
    readonly path: string;
    readonly id: string;
    readonly schemas: DocumentSchemas;
    /** The controller's name without `Controller`, which names its schemas where another controller's differ. */
    readonly owner: string;
    /** Query properties a path segment of this route takes the place of. */
    readonly standsIn: readonly string[];
    readonly rest?: RestShape;
  },
): Decorator[] {
  const { description, operation, path, id, schemas, owner, standsIn, rest } = args;
  const context = { description, schemas, owner };
  const docs = operation.docs;
  const plan = envelopePlanOf(rest?.envelope, operation);
  const requestBody = requestBodyOf(context, operation, plan);
  const declared = Object.entries(
    (Reflect.getMetadata(API_OPERATION, method) as Record<string, unknown> | undefined) ?? {},
  ).filter(([, value]) => value !== '' && value !== undefined);
  const decorators: Decorator[] = [
    api.ApiOperation({
      operationId: id,
      summary: operation.summary,
      ...(docs?.description ? { description: docs.description } : {}),
      ...(docs?.deprecated ? { deprecated: true } : {}),
      ...(requestBody ? { requestBody } : {}),
      ...Object.fromEntries(declared),
    }),
  ];
  if (docs?.tags && docs.tags.length > 0) decorators.push(api.ApiTags(...docs.tags));
  const plain = filterParamParameters(context, operation, rest?.filterParams(operation.id));
  for (const parameter of [...parametersOf(context, operation, path, standsIn), ...plain]) {
    const decorator = parameter.in === 'path' ? api.ApiParam : parameter.in === 'query' ? api.ApiQuery : api.ApiHeader;
    decorators.push(decorator(parameter));
  }
  const declaredResponses = (Reflect.getMetadata(API_RESPONSE, method) as Record<string, unknown> | undefined) ?? {};
  for (const [status, response] of Object.entries(responsesOf(context, operation, plan))) {
    if (declaredResponses[status] === undefined)
      decorators.push(api.ApiResponse({ status: Number(status), ...response }));
  }
  return decorators;
}

/**
 * Leaves a controller of another surface (GraphQL, MCP) out of the OpenAPI document: each serves every method on one
 * path (`@All`), which OpenAPI 3.1 cannot state, and each describes itself (GraphQL introspection, MCP `tools/list`).
 */
export function hideFromOpenApi(controller: Function): void {
  loadSwagger()?.ApiExcludeController()(controller);
}
