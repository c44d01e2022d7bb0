/**
 * Validators of write bodies: Standard Schema objects (zod, valibot, arktype: anything with `~standard`), validated
 * here, and schema classes, validated by the framework's class adapter (class-validator in @svc/nestjs).
 */
import type { SvcErrorItem } from '../errors/svc-exception';
import { ConfigurationException } from '../errors/configuration-exception';
import type { StandardSchemaV1 } from '../config/standard-schema';

export type { StandardSchemaV1 };

export type ValidationOutcome = { readonly value: unknown } | { readonly errors: readonly SvcErrorItem[] };

/** Validates and transforms schema classes (`SvcOptions.classSchemas`; SvcModule registers class-validator's). */
export interface ClassSchemaAdapter {
  /** The fields a class declares for validation: the writable-field allowlist of its slot. */
  fieldsOf(schema: Function): readonly string[];
  /** `partial`: fields left out are not required (patch). */
  validate(schema: Function, body: unknown, options: { readonly partial: boolean }): Promise<ValidationOutcome>;
  /**
   * The JSON Schema (draft 2020-12) of what the class accepts, for documents (OpenAPI) to show; undefined when the
   * adapter cannot say.
   */
  jsonSchemaOf?(schema: Function): Readonly<Record<string, unknown>> | undefined;
}

export type BodyValidator = (body: unknown) => Promise<ValidationOutcome>;

/** The class adapter a schema class at `path` needs; without one the class cannot be validated, a boot error. */
export function requireClassSchemas(
  adapter: ClassSchemaAdapter | undefined,
  entity: string,
  path: string,
): ClassSchemaAdapter {
  if (adapter) return adapter;
  throw new ConfigurationException({
    entity,
    path,
    message:
      'is a schema class, and no class validator is registered. Use SvcModule (it registers class-validator), or pass classSchemas to createSvc.',
  });
}

export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const standard = (value as { '~standard'?: { validate?: unknown } } | null)?.['~standard'];
  return typeof standard?.validate === 'function';
}

/** A body validator over a Standard Schema: one errors[] entry per issue, named by the issue's path. */
export function standardValidator(schema: StandardSchemaV1): BodyValidator {
  return async (body) => {
    const result = await schema['~standard'].validate(body);
    if (!result.issues) return { value: result.value };
    return {
      errors: result.issues.map((issue) => ({
        field: (issue.path ?? []).map((part) => String(typeof part === 'object' ? part.key : part)).join('.'),
        code: 'invalid_value',
        detail: issue.message,
      })),
    };
  };
}

/**
 * The JSON Schema (draft 2020-12) of what a body validator accepts: a schema class's from its adapter, a Standard
 * Schema validator's when it implements Standard JSON Schema (`~standard.jsonSchema.input`, as zod 4 does).
 * Undefined when neither can say; `partial` leaves out `required` (a patch).
 */
export function inputJsonSchemaOf(
  value: unknown,
  adapter: ClassSchemaAdapter | undefined,
  options: { readonly partial?: boolean } = {},
): Readonly<Record<string, unknown>> | undefined {
  const schema = typeof value === 'function' ? adapter?.jsonSchemaOf?.(value) : standardJsonSchemaOf(value);
  if (!schema || !options.partial) return schema;
  const { required: _required, ...partial } = schema;
  return partial;
}

function standardJsonSchemaOf(value: unknown): Readonly<Record<string, unknown>> | undefined {
  if (!isStandardSchema(value)) return undefined;
  const converter = (value as { '~standard': { jsonSchema?: { input?: unknown } } })['~standard'].jsonSchema;
  if (typeof converter?.input !== 'function') return undefined;
  try {
    const schema = (converter.input as (options: { target: string }) => unknown)({ target: 'draft-2020-12' });
    return schema !== null && typeof schema === 'object' && !Array.isArray(schema)
      ? (schema as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined; // a validator that cannot say its shape still validates; the document shows its fields
  }
}
