/** A create or update body as its slot admits it, with what `set` forces merged over it. */
import { ValidationFailedException } from '../errors/svc-exception';
import type { Row } from '../persistence/repository-adapter';
import { readBody, requiredItem } from '../schema/validate-body';
import type { RequiredSet, WriteSchema } from '../schema/write-schema';
import { forcedValues, type SetArgs } from '../schema/forced-values';
import type { OperationCall } from '../pipeline/operation-call';

/**
 * The body checked against its slot, with what `set` forces merged over it (winning over the client's values). A
 * required field that `set` fills need not be sent; one it does not fill is the client's 400.
 */
export async function bodyWithSet(
  call: OperationCall,
  slot: 'create' | 'update',
  schema: WriteSchema,
  body: unknown = call.request.body,
  /** Fields the write fills itself (a nested member's relation back to its parent): required, but not the body's. */
  filled: readonly string[] = [],
): Promise<Row> {
  const missing: RequiredSet[] = [];
  const values = await readBody(schema, body, { replace: slot === 'update', missing });
  let set: Row;
  try {
    set = await forcedValuesFor(call, slot, body);
  } catch (error) {
    // A set function may rely on a field the client left out: that is the client's mistake, answered as such.
    if (missing.length > 0) throw new ValidationFailedException(missing.map(requiredItem));
    throw error;
  }
  const unfilled = missing.filter(
    (required) =>
      !required.fillable.some((field) => Object.hasOwn(set, field)) &&
      !required.sendable.some((field) => filled.includes(field)),
  );
  if (unfilled.length > 0) throw new ValidationFailedException(unfilled.map(requiredItem));
  return { ...values, ...set };
}

/** What `set` forces for this write (of one body of a batch, or of the request's). */
export function forcedValuesFor(call: OperationCall, slot: 'create' | 'update', body: unknown) {
  return forcedValues(call.entity.name, call.entity.metadata, slot, call.entity.forced[slot], {
    operation: call.operation.id as SetArgs['operation'],
    body,
    context: call.context,
  });
}
