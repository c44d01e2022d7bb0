/** Checks a write body against its slot: unknown keys refused, stripped keys dropped, values checked per column. */
import { suggestion } from '../config/did-you-mean';
import { MalformedRequestException, ValidationFailedException, type SvcErrorItem } from '../errors/svc-exception';
import type { Row } from '../persistence/repository-adapter';
import { checkColumnValue, type Checked } from './check-column-value';
import type { RequiredSet, WritableField, WriteSchema } from './write-schema';

/** How a body is read: `replace` (updateOne) resets the writable fields left out. */
export interface ReadBodyOptions {
  readonly replace?: boolean;
  /**
   * When given, required fields the body leaves out are collected here instead of failing it (the caller decides once
   * it knows what `set` fills); every other problem still fails the body.
   */
  readonly missing?: RequiredSet[];
}

/** Runs the slot's class or validator (if any), then the field rules of `validateBody` on what it returns. */
export async function readBody(schema: WriteSchema, body: unknown, options: ReadBodyOptions = {}): Promise<Row> {
  if (!schema.validator) return validateBody(schema, body, options);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new MalformedRequestException('The body must be a JSON object of fields.');
  }
  // Keys stripped silently (a client may PUT back what it read) never reach the validator, which would refuse them.
  const sent = Object.fromEntries(Object.entries(body).filter(([key]) => !schema.stripped.has(key)));
  const outcome = await schema.validator(sent);
  if ('errors' in outcome) throw new ValidationFailedException(outcome.errors);
  return validateBody(schema, outcome.value, options);
}

/** Returns the values to write. `replace` (updateOne) fills the writable fields left out with their reset values. */
export function validateBody(schema: WriteSchema, body: unknown, options: ReadBodyOptions = {}): Row {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new MalformedRequestException('The body must be a JSON object of fields.');
  }
  const errors: SvcErrorItem[] = [];
  const values: Row = {};
  for (const key of Object.keys(body)) {
    if (schema.stripped.has(key)) continue;
    const field = schema.fields.get(key);
    if (!field) {
      errors.push({
        field: key,
        code: 'not_writable',
        detail: `'${key}' is not a writable field here.${suggestion(key, schema.fields.keys())}`,
      });
      continue;
    }
    const checked = checkField(field, (body as Record<string, unknown>)[key]);
    if (checked.ok) values[key] = checked.value;
    else errors.push({ field: key, code: checked.code ?? 'invalid_value', detail: `'${key}' ${checked.reason}.` });
  }
  for (const required of schema.requiredSets) {
    if (!required.sendable.some((name) => name in values || errors.some((error) => error.field === name))) {
      if (options.missing) options.missing.push(required);
      else errors.push(requiredItem(required));
    }
  }
  checkDoubleRelation(schema, values, errors);
  if (errors.length > 0) throw new ValidationFailedException(errors);
  if (options.replace) {
    for (const [name, reset] of schema.resets) {
      const field = schema.fields.get(name);
      const viaRelation =
        field?.kind === 'column' && field.column.foreignKeyOf !== undefined && field.column.foreignKeyOf in values;
      if (!(name in values) && !viaRelation) values[name] = reset;
    }
  }
  return values;
}

/** The errors[] entry of a required field left out, or of a required reference sent neither way. */
export function requiredItem(required: RequiredSet): SvcErrorItem {
  const [name, other] = required.sendable;
  const detail =
    other === undefined ? `'${name}' is required.` : `'${name}' or '${other}' is required: send one of them.`;
  return { field: name!, code: 'required', detail };
}

function checkField(field: WritableField, value: unknown): Checked {
  if (field.kind === 'column') return checkColumnValue(field.column, value);
  if (value === null)
    return field.relation.nullable ? { ok: true, value: null } : { ok: false, reason: 'must not be null' };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reason: `must be a reference like { "${field.targetKey}": 7 }` };
  }
  const keys = Object.keys(value);
  const id = (value as Record<string, unknown>)[field.targetKey];
  if (keys.length !== 1 || (typeof id !== 'number' && typeof id !== 'string')) {
    return { ok: false, reason: `must be a reference like { "${field.targetKey}": 7 } and nothing else` };
  }
  const checked = checkColumnValue(field.keyColumn, id);
  if (!checked.ok) return { ...checked, reason: `.${field.targetKey} ${checked.reason}` };
  return { ok: true, value: { [field.targetKey]: checked.value } };
}

function checkDoubleRelation(schema: WriteSchema, values: Row, errors: SvcErrorItem[]): void {
  for (const [name, field] of schema.fields) {
    if (field.kind !== 'column' || !field.column.foreignKeyOf) continue;
    if (name in values && field.column.foreignKeyOf in values) {
      errors.push({
        field: name,
        code: 'conflict',
        detail: `Send '${name}' or '${field.column.foreignKeyOf}', not both.`,
      });
    }
  }
}
