/** Schema classes validated with class-validator and transformed with class-transformer: core's ClassSchemaAdapter. */
import type { ClassSchemaAdapter, SvcErrorItem } from '@svc/core';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { getMetadataStorage, validate, type ValidationError } from 'class-validator';

export function classValidatorSchemas(): ClassSchemaAdapter {
  const fields = new Map<Function, readonly string[]>();
  return {
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

function toItems(error: ValidationError, prefix: string): SvcErrorItem[] {
  const field = prefix ? `${prefix}.${error.property}` : error.property;
  const own = Object.entries(error.constraints ?? {}).map(([code, detail]) => ({ field, code, detail: `${detail}.` }));
  return [...own, ...(error.children ?? []).flatMap((child) => toItems(child, field))];
}
