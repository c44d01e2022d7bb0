/** slotJsonSchema: a write slot's validator schema, with each date column's property as the column takes it. */
import { slotJsonSchema } from '../../src/schema/slot-json-schema';

const DUE = { name: 'due', kind: 'date' as const, nullable: true };

describe('slotJsonSchema', () => {
  describe('on a property that names a date column', () => {
    it('states a date where the validator admits a date or a date-time', () => {
      const schema = {
        type: 'object',
        properties: {
          due: {
            description: 'When it is due.',
            oneOf: [
              { type: 'string', format: 'date' },
              { type: 'string', format: 'date-time' },
            ],
          },
        },
      };
      expect(slotJsonSchema(schema, [DUE]).properties).toEqual({
        due: { description: 'When it is due.', type: 'string', format: 'date' },
      });
    });

    it('admits null only where the validator and the column both do', () => {
      const nullable = { properties: { due: { anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] } } };
      expect(slotJsonSchema(nullable, [DUE]).properties).toEqual({ due: { type: ['string', 'null'], format: 'date' } });
      expect(slotJsonSchema(nullable, [{ ...DUE, nullable: false }]).properties).toEqual({
        due: { type: 'string', format: 'date' },
      });
      const plain = { properties: { due: { type: 'string', format: 'date-time' } } };
      expect(slotJsonSchema(plain, [DUE]).properties).toEqual({ due: { type: 'string', format: 'date' } });
    });

    it('keeps alternatives that are not date strings, and the other keywords', () => {
      const schema = {
        properties: { due: { anyOf: [{ type: 'string', format: 'date' }, { const: 'soon' }], title: 'Due' } },
      };
      expect(slotJsonSchema(schema, [DUE]).properties).toEqual({
        due: {
          anyOf: [{ type: 'string', format: 'date' }, { const: 'soon' }],
          title: 'Due',
          type: 'string',
          format: 'date',
        },
      });
    });
  });

  it('returns the schema as it is when no property names a date column', () => {
    const schema = { properties: { title: { type: 'string' }, due: { type: 'string' } } };
    expect(slotJsonSchema(schema, [{ name: 'title', kind: 'string', nullable: false }])).toBe(schema);
    expect(slotJsonSchema({ type: 'object' }, [DUE])).toEqual({ type: 'object' });
  });
});
