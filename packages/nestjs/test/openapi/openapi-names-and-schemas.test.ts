/** The names and schema pieces of the OpenAPI document, checked without an app. */
import type { OperationDescription } from '@svc/core';
import { admitNull, columnJsonSchema as columnSchema } from '@svc/core/spi';
import { operationIdOf } from '../../src/openapi/operation-names';

const operation = (overrides: Partial<OperationDescription>): OperationDescription =>
  ({
    id: 'findMany',
    standard: true,
    kind: 'read',
    cardinality: 'many',
    state: 'on',
    successStatus: 200,
    body: 'none',
    query: 'list',
    ...overrides,
  }) as OperationDescription;

describe('operationIdOf', () => {
  it('names the entity in the plural after Many and in the singular otherwise', () => {
    expect(operationIdOf('Category', operation({ id: 'findMany' }))).toBe('findManyCategories');
    expect(operationIdOf('Book', operation({ id: 'patchOne' }))).toBe('patchOneBook');
    expect(operationIdOf('Book', operation({ id: 'archive', standard: false }))).toBe('archiveBook');
  });

  it('names relation operations by action, entity and relation, and the member form of a removal', () => {
    const remove = operation({ id: 'tags:remove', standard: false, relation: { name: 'tags', action: 'remove' } });
    expect(operationIdOf('Book', remove)).toBe('removeBookTags');
    expect(operationIdOf('Book', remove, true)).toBe('removeBookTagsMember');
  });
});

describe('schemas in OpenAPI 3.1 form', () => {
  it('admits null through the type list, and in enum', () => {
    expect(columnSchema({ kind: 'integer', nullable: true }, 'output')).toEqual({ type: ['integer', 'null'] });
    expect(columnSchema({ kind: 'enum', nullable: true, enumValues: ['a', 'b'] }, 'output')).toEqual({
      type: ['string', 'null'],
      enum: ['a', 'b', null],
    });
    expect(admitNull({})).toEqual({});
  });

  it('bounds what a client sends by the column (string length, 32-bit integers)', () => {
    expect(columnSchema({ kind: 'string', nullable: false, length: 20 }, 'input')).toEqual({
      type: 'string',
      maxLength: 20,
    });
    expect(columnSchema({ kind: 'integer', nullable: false }, 'input')).toMatchObject({ maximum: 2147483647 });
  });
});
