/**
 * The config is typed by the entity: ten mistakes a newcomer makes in `createCrud(Budget, {...})` (and so in
 * `@Svc(Budget, {...})`, which takes the same type), each compiled as a program of its own against core's sources,
 * must fail to compile and name the misspelt field; the same config spelt right compiles. Configs built at run time
 * (`EntityConfig` with no entity) still take any name, and the boot checks refuse what the metadata lacks.
 */
import { compileAgainstCore } from './compile-against-core';
import { report } from '../../../../test/support/test-report';

/** The diagnostics of `source` compiled against @svc/core's sources. */
function compile(source: string): string[] {
  return compileAgainstCore(source, '__entity_fields__.ts');
}

const ENTITIES = `
  import { createCrud, type EntityConfig } from '@svc/core';
  class Owner { id!: number; name!: string; country!: string | null }
  class Money { amount!: string; currency!: string }
  class Budget {
    id!: number;
    name!: string;
    monthlyLimit!: string;
    limit!: Money;
    createdAt!: Date;
    ownerId!: number | null;
    owner!: Owner | null;
    archive(): void {}
  }
`;

/** Ten typical mistakes: a config key, and the misspelt name the compiler must name. */
const MISTAKES: readonly (readonly [string, string, string])[] = [
  ['sort.fields', "sort: { fields: ['monthlyLimt'] }", 'monthlyLimt'],
  ['sort.default', "sort: { default: ['-createdAT'] }", '-createdAT'],
  ['filter.fields (array)', "filter: { fields: ['nmae'] }", 'nmae'],
  ['filter.fields (map)', "filter: { fields: { monthlyLimit: ['gte'], ownerid: ['eq'] } }", 'ownerid'],
  ['select.fields', "select: { fields: { exclude: ['createdOn'] } }", 'createdOn'],
  ['search.fields', "search: { fields: ['title'] }", 'title'],
  ['include.fields', "include: { fields: ['owners'] }", 'owners'],
  ['schema.input.create', "schema: { input: { create: ['name', 'monthly_limit'] } }", 'monthly_limit'],
  ['a relation path', "filter: { fields: ['owner.contry'] }", 'owner.contry'],
  ['batch.create.onConflict.target', "batch: { create: { onConflict: { target: ['nam'], update: 'all' } } }", 'nam'],
];

describe('EntityConfig typed by the entity', () => {
  it('compiles the config spelt right, relation and embedded paths included', () => {
    const errors = compile(`${ENTITIES}
      export const budgets = createCrud(Budget, {
        sort: { fields: ['name', 'monthlyLimit', 'createdAt'], default: ['-createdAt', 'name'] },
        filter: { fields: { monthlyLimit: ['gte'], ownerId: ['eq'], 'owner.country': ['eq'], 'limit.currency': ['eq'] } },
        select: { fields: { exclude: ['createdAt'] } },
        search: { fields: ['name'] },
        include: { fields: ['owner'] },
        schema: { input: { create: ['name', 'monthlyLimit', 'ownerId'] } },
        identifier: { field: 'name' },
        aggregate: { groupBy: ['ownerId', 'owner.country'], fields: { monthlyLimit: ['sum'] } },
        batch: { create: { onConflict: { target: ['name'], update: ['monthlyLimit'] } } },
        set: { create: () => ({ ownerId: 1 }) },
        count: true,
        operations: { archiveOne: { handler: async (input, context) => context.repository.findOne({ key: input.key! }) } },
      });
      export const rows: Promise<Budget[]> = budgets.findMany().then((page) => page.items);
      // A config built at run time takes any name; the boot checks hold it to the metadata.
      export const loose: EntityConfig = { sort: { fields: ['anything'] } };
    `);
    expect(errors).toEqual([]);
  });

  it('fails to compile each of ten typical mistakes, naming the field', () => {
    const caught = MISTAKES.filter(([, config, name]) => {
      const errors = compile(`${ENTITIES}\n export const budgets = createCrud(Budget, { ${config} });`);
      return errors.some((error) => error.includes(`'${name}'`) || error.includes(`"${name}"`));
    });
    report(
      `EntityConfig typed by the entity: ${caught.length} of ${MISTAKES.length} typical mistakes fail to compile` +
        ` (missed: ${
          MISTAKES.filter((mistake) => !caught.includes(mistake))
            .map(([key]) => key)
            .join(', ') || 'none'
        })`,
    );
    expect(caught.map(([key]) => key)).toEqual(MISTAKES.map(([key]) => key));
  });
});
