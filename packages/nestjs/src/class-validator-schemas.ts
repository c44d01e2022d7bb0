/** Schema classes validated with class-validator and transformed with class-transformer: core's ClassSchemaAdapter. */
import type { SvcErrorItem } from '@svc/core';
import type { ClassSchemaAdapter } from '@svc/core/spi';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { getMetadataStorage, IS_DATE_STRING, validate, type ValidationError } from 'class-validator';
import { targetConstructorToSchema, validationMetadatasToSchemas } from 'class-validator-jsonschema';

export function classValidatorSchemas(): ClassSchemaAdapter {
  const fields = new Map<Function, readonly string[]>();
  const jsonSchemas = new Map<Function, Readonly<Record<string, unknown>>>();
  return {
    jsonSchemaOf(schema) {
      let json = jsonSchemas.get(schema);
      if (!json) {
        json = classJsonSchema(schema);
        jsonSchemas.set(schema, json);
      }
      return json;
    },
    fieldsOf(schema) {
      let names = fields.get(schema);
      if (!names) {
        const metadata = getMetadataStorage().getTargetValidationMetadatas(schema, '', true, false);
        names = Object.freeze([...new Set(metadata.map((entry) => entry.propertyName))]);
        fields.set(schema, names);
      }
      return names;
    },
    async validate(schema, body, { partial }) {
      const instance = plainToInstance(schema as ClassConstructor<object>, body) as Record<string, unknown>;
      const errors = await validate(instance, {
        whitelist: true,
        forbidNonWhitelisted: true,
        forbidUnknownValues: true,
        skipMissingProperties: partial,
      });
      if (errors.length > 0) return { errors: errors.flatMap((error) => toItems(error, '')) };
      // Only what the client sent: initializers of the class must not write values the client left out.
      const value: Record<string, unknown> = {};
      for (const key of Object.keys(body as object)) if (key in instance) value[key] = instance[key];
      return { value };
    },
  };
}

/** Where class-validator-jsonschema points at nested classes' schemas, to be inlined. */
const DEFS = '#/definitions/';

/**
 * Decorators whose schema the library states more narrowly than class-validator checks them. `@IsDateString()` checks
 * an ISO 8601 date or date-time (`2026-12-01` passes), as `@IsISO8601()` does, where the library's pattern asks for a
 * date-time with fractional seconds.
 */
const CONVERTERS = {
  [IS_DATE_STRING]: {
    oneOf: [
      { type: 'string' as const, format: 'date' },
      { type: 'string' as const, format: 'date-time' },
    ],
  },
};

const OPTIONS = { refPointerPrefix: DEFS, additionalConverters: CONVERTERS };

/**
 * The JSON Schema of a class from its class-validator decorators, by class-validator-jsonschema (a well-kept reading
 * of the same metadata, so Svc keeps no table of its own of what each decorator means). Nested classes
 * (`@ValidateNested()` with `@Type(() => Inner)`) are inlined, so the schema stands alone wherever it is put (an
 * OpenAPI document resolves `$ref` from its own root); a class nested in itself stops at `{ type: 'object' }`. Svc
 * validates with `forbidNonWhitelisted`, so no object takes a property its class does not declare.
 */
function classJsonSchema(schema: Function): Readonly<Record<string, unknown>> {
  const named = validationMetadatasToSchemas(OPTIONS) as Record<string, Record<string, unknown>>;
  const inline = (value: unknown, open: ReadonlySet<string>): unknown => {
    if (Array.isArray(value)) return value.map((item) => inline(item, open));
    if (value === null || typeof value !== 'object') return value;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith(DEFS)) {
      const name = ref.slice(DEFS.length);
      const target = named[name];
      if (!target || open.has(name)) return { type: 'object' };
      return inline(closed(target), new Set([...open, name]));
    }
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, inline(inner, open)]));
  };
  const root = closed(targetConstructorToSchema(schema, OPTIONS) as Record<string, unknown>);
  return inline(root, new Set([schema.name])) as Record<string, unknown>;
}

function closed(schema: Record<string, unknown>): Record<string, unknown> {
  return schema['type'] === 'object' ? { ...schema, additionalProperties: false } : schema;
}

function toItems(error: ValidationError, prefix: string): SvcErrorItem[] {
  const field = prefix ? `${prefix}.${error.property}` : error.property;
  const own = Object.entries(error.constraints ?? {}).map(([code, detail]) => ({
    field,
    code,
    detail: sentence(detail),
  }));
  return [...own, ...(error.children ?? []).flatMap((child) => toItems(child, field))];
}

/**
 * A constraint's message as a sentence: class-validator's own messages end bare (`title must be a string`) and get a
 * period; an app's `{ message }` that already closes with `.`, `!`, `?` or `…` is kept as written.
 */
function sentence(message: string): string {
  const text = message.trimEnd();
  return /[.!?\u2026]$/.test(text) ? text : `${text}.`;
}
