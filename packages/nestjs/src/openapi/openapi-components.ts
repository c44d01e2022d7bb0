/**
 * The named schemas of the document (`components.schemas`): each entity's row (`Book`), list envelope (`BookList`),
 * write bodies (`BookCreate`, `BookUpdate`, `BookPatch`) and filter (`BookFilter`), and `Problem`. Routes refer to
 * them by `$ref`, so a client generator (openapi-typescript, say) gives each a type of its own to import, and the
 * document says each shape once. A second controller of the same entity whose shape differs gets its own name, its
 * controller's name first (`CatalogBook`).
 */
import { isDeepStrictEqual } from 'node:util';
import { type EntityDescription } from '@svc/core';
import { filterJsonSchema } from '@svc/core/spi';
import {
  listEnvelopeSchema,
  PROBLEM_SCHEMA,
  rowSchema,
  writeBodySchema,
  type DescriptionLookup,
  type JsonSchema,
} from './openapi-schemas';

const COMPONENTS = '#/components/schemas/';

const SLOT_NAMES = { create: 'Create', update: 'Update', patch: 'Patch' } as const;

export class DocumentSchemas {
  private readonly named = new Map<string, JsonSchema>();

  constructor(private readonly lookup: DescriptionLookup) {}

  /** The schemas named so far, by name. */
  entries(): [string, JsonSchema][] {
    return [...this.named.entries()];
  }

  /** The item a read serves, with its includable relations. */
  item(description: EntityDescription, owner: string): JsonSchema {
    return this.ref(description.name, rowSchema(description, description.output.item, this.lookup), owner);
  }

  /** The list envelope; its items are the item schema, or a schema of their own where a list serves other fields. */
  list(description: EntityDescription, owner: string): JsonSchema {
    const sameFields = isDeepStrictEqual([...description.output.list], [...description.output.item]);
    const item = sameFields
      ? this.item(description, owner)
      : this.ref(`${description.name}ListItem`, rowSchema(description, description.output.list, this.lookup), owner);
    return this.ref(`${description.name}List`, listEnvelopeSchema(description, item), owner);
  }

  /** A write slot's body; a patch must change something. */
  write(description: EntityDescription, slot: 'create' | 'update' | 'patch', owner: string): JsonSchema {
    const name = `${description.name}${SLOT_NAMES[slot]}`;
    const schema = writeBodySchema(description, slot, name);
    return this.ref(name, slot === 'patch' ? { ...schema, minProperties: 1 } : schema, owner);
  }

  /** The typed JSON filter, or undefined when nothing is filterable. */
  filter(description: EntityDescription, owner: string): JsonSchema | undefined {
    const name = this.freeName(`${description.name}Filter`, owner, (candidate) =>
      filterJsonSchema(description, `${COMPONENTS}${candidate}`),
    );
    if (!name) return undefined;
    return { $ref: `${COMPONENTS}${name}` };
  }

  /** The problem details object every error answers. */
  problem(): JsonSchema {
    return this.ref('Problem', PROBLEM_SCHEMA, '');
  }

  /** Names `schema` (the name, else `<owner><name>`, else with a number) and answers a reference to it. */
  private ref(name: string, schema: JsonSchema, owner: string): JsonSchema {
    return { $ref: `${COMPONENTS}${this.freeName(name, owner, () => schema)!}` };
  }

  /**
   * The name a schema goes under: the first of `name`, `<owner><name>`, `<owner><name>2`, ... that is free or already
   * holds the same schema. `schemaFor` builds it for a name (a recursive schema refers to its own name).
   */
  private freeName(
    name: string,
    owner: string,
    schemaFor: (name: string) => JsonSchema | undefined,
  ): string | undefined {
    for (let attempt = 0; ; attempt++) {
      const candidate = attempt === 0 ? name : `${owner}${name}${attempt > 1 ? attempt : ''}`;
      const schema = schemaFor(candidate);
      if (!schema) return undefined;
      const known = this.named.get(candidate);
      if (!known) {
        this.named.set(candidate, schema);
        return candidate;
      }
      if (isDeepStrictEqual(known, schema)) return candidate;
    }
  }
}
