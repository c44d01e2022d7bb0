/**
 * The named schemas of the document (`components.schemas`): each entity's named schemas as its description gives them
 * (`Book`, `BookList`, `BookCreate`, `BookFilter`, `Problem`, ...), taken as the routes refer to them. An operation's
 * schemas point at `#/$defs/<name>`; here that pointer becomes `#/components/schemas/<name>`, so a client generator
 * (openapi-typescript, say) gives each a type of its own, and the document says each shape once. A second controller
 * of the same entity whose shape differs gets its own names, its controller's name first (`CatalogBook`).
 */
import { isDeepStrictEqual } from 'node:util';
import { type EntityDescription } from '@svc/core';
import { mapSchemaRefs, PROBLEM_JSON_SCHEMA, schemaNameOf } from '@svc/core/spi';

/** A JSON Schema object as OpenAPI 3.1 embeds it. */
export type JsonSchema = Record<string, unknown>;

const COMPONENTS = '#/components/schemas/';

export class DocumentSchemas {
  private readonly named = new Map<string, JsonSchema>();
  /** Per description and controller: the component name each of its named schemas went under. */
  private readonly assigned = new WeakMap<EntityDescription, Map<string, Map<string, string>>>();

  /** The schemas named so far, by name. */
  entries(): [string, JsonSchema][] {
    return [...this.named.entries()];
  }

  /** Names taken before any route of this document is rendered (by routes an earlier app documented). */
  seed(entries: readonly (readonly [string, JsonSchema])[]): void {
    for (const [name, schema] of entries) if (!this.named.has(name)) this.named.set(name, schema);
  }

  /**
   * `schema` as the document holds it: each `#/$defs/<name>` of the entity's named schemas points at the component
   * that holds it, which is added the first time it is referred to.
   */
  render(schema: JsonSchema, description: EntityDescription, owner: string): JsonSchema {
    return this.rewrite(schema, (name) => this.componentOf(description, owner, name)) as JsonSchema;
  }

  /** A reference to the component of one of the entity's named schemas, or undefined when it has none by that name. */
  ref(description: EntityDescription, owner: string, name: string): JsonSchema | undefined {
    if (!description.schemas[name]) return undefined;
    return { $ref: `${COMPONENTS}${this.componentOf(description, owner, name)}` };
  }

  /** The entity's named schema `name` itself (its pointers as the document's), for reading its members. */
  resolve(description: EntityDescription, name: string): JsonSchema | undefined {
    return description.schemas[name] as JsonSchema | undefined;
  }

  /** The problem details object every error answers. */
  problem(description: EntityDescription, owner: string): JsonSchema {
    const ref = this.ref(description, owner, 'Problem');
    if (ref) return ref;
    if (!this.named.has('Problem')) this.named.set('Problem', { ...PROBLEM_JSON_SCHEMA });
    return { $ref: `${COMPONENTS}Problem` };
  }

  /**
   * The component name of the entity's named schema `name` for this controller: the name itself, else
   * `<owner><name>`, else with a number, the first that is free or already holds the same schema. The schemas it
   * refers to are named first; a schema referring to itself (the filter's groups) is compared under each candidate.
   */
  private componentOf(description: EntityDescription, owner: string, name: string): string {
    let byOwner = this.assigned.get(description);
    if (!byOwner) this.assigned.set(description, (byOwner = new Map()));
    let names = byOwner.get(owner);
    if (!names) byOwner.set(owner, (names = new Map()));
    const known = names.get(name);
    if (known) return known;
    const schema = withRoles(description, name, description.schemas[name] as JsonSchema);
    const inner = (other: string) => (other === name ? undefined : this.componentOf(description, owner, other));
    for (let attempt = 0; ; attempt++) {
      const candidate = attempt === 0 ? name : `${owner}${name}${attempt > 1 ? attempt : ''}`;
      const rendered = this.rewrite(schema, (other) => inner(other) ?? candidate) as JsonSchema;
      const held = this.named.get(candidate);
      if (!held || isDeepStrictEqual(held, rendered)) {
        this.named.set(candidate, rendered);
        names.set(name, candidate);
        return candidate;
      }
    }
  }

  /** `value` with every `#/$defs/<name>` pointer turned into the component `componentOf(name)`. */
  private rewrite(value: unknown, componentOf: (name: string) => string): unknown {
    return mapSchemaRefs(value, (pointer, ref) => {
      const name = schemaNameOf(pointer);
      return name === undefined ? ref : { ...ref, $ref: `${COMPONENTS}${componentOf(name)}` };
    });
  }
}

/**
 * A row's or a write body's schema with each property naming the roles that may read it, or write it
 * (`x-svc-roles`), where the entity gives roles rules (`access`): the document shows the widest view, and who sees less.
 */
function withRoles(description: EntityDescription, name: string, schema: JsonSchema): JsonSchema {
  const roles = description.roles;
  const properties = schema['properties'] as Record<string, JsonSchema> | undefined;
  if (!roles || !properties) return schema;
  const entity = description.name;
  const part = [entity, `${entity}ListItem`].includes(name)
    ? 'read'
    : [`${entity}Create`, `${entity}Update`, `${entity}Patch`].includes(name)
      ? 'write'
      : undefined;
  if (!part) return schema;
  const named = roles[part];
  const marked = Object.fromEntries(
    Object.entries(properties).map(([field, property]) =>
      named[field] ? [field, { ...property, 'x-svc-roles': { [part]: [...named[field]] } }] : [field, property],
    ),
  );
  return { ...schema, properties: marked };
}
