import { buildSelectConfig } from '../../src/query/select-config';
import { BOOK_COLUMNS, BOOK_METADATA, column } from '../support/fixtures';

/** Book with a column the ORM reads only when asked (TypeORM's `select: false`). */
const WITH_HIDDEN = { ...BOOK_METADATA, columns: [...BOOK_COLUMNS, column('secret', 'string', { hidden: true })] };

describe('select.fields and a hidden column', () => {
  it('leaves it out of the default', () => {
    const { fields } = buildSelectConfig('Book', WITH_HIDDEN, undefined);
    expect(fields).toEqual(BOOK_COLUMNS.map((candidate) => candidate.property));
  });

  it('leaves it out of the { exclude } form', () => {
    const { fields } = buildSelectConfig('Book', WITH_HIDDEN, { fields: { exclude: ['extra'] } });
    expect(fields).not.toContain('secret');
    expect(fields).not.toContain('extra');
    expect(fields).toContain('title');
  });

  it('serves it where the array form names it', () => {
    expect(buildSelectConfig('Book', WITH_HIDDEN, { fields: ['id', 'secret'] }).fields).toEqual(['id', 'secret']);
  });
});
