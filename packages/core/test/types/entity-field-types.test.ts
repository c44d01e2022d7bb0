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
      // A config typed by its entity is still a config wherever any config is taken (a helper, a factory).
      const typed: EntityConfig<Budget> = {
        sort: { fields: ['name'] },
        access: { role: () => 'reader', roles: { reader: { read: { exclude: ['monthlyLimit'] }, update: ['name'] } } },
        operations: { updateOne: { handler: (input, context) => context.repository.findOne(1, context) } },
      };
      export const widened: EntityConfig = typed;
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

  it('types the rows and bodies of handlers, custom operations and @Override methods', () => {
    const right = compile(`${ENTITIES}
      import type { HandlerContext, RowInput, SvcOperationInput } from '@svc/core';
      createCrud(Budget, {
        operations: {
          updateOne: {
            handler: async (input, context) => {
              const name: string | null | undefined = input.body?.name;
              const row: Budget | null = await context.repository.update(input.key!, { name: name ?? 'x' }, context);
              return row;
            },
          },
          // A custom operation names the body its input schema validates.
          renameOne: {
            async handler(input: SvcOperationInput<{ readonly to: string }>, context) {
              const created: Budget = await context.repository.create({ name: input.body!.to, owner: { id: 1 }, createdAt: '2026-01-01' });
              const page = await context.repository.findMany({ filter: { name: input.body!.to } }, context);
              return [created.monthlyLimit, page.entities[0]?.owner?.country];
            },
          },
        },
      });
      // An @Override method annotates its parameters the same way.
      export class BudgetsController {
        async patchOne(input: SvcOperationInput<RowInput<Budget>>, context: HandlerContext<Budget>): Promise<Budget | null> {
          return context.repository.findOne(String(input.body?.monthlyLimit), context);
        }
      }
    `);
    expect(right).toEqual([]);
    const mistakes = [
      ['a body field', 'updateOne: { handler: (input) => input.body?.nmae }', 'nmae'],
      [
        'a row field',
        'findOne: { handler: async (input, context) => (await context.repository.findOne(1, context))?.titel }',
        'titel',
      ],
      [
        'a created field',
        "createOne: { handler: (input, context) => context.repository.create({ monthlyLimt: '1' }) }",
        'monthlyLimt',
      ],
      [
        'a listed row field',
        'findMany: { handler: async (input, context) => (await context.repository.findMany({}, context)).entities[0].nam }',
        'nam',
      ],
    ] as const;
    const caught = mistakes.filter(([, operation, name]) =>
      compile(`${ENTITIES}\n createCrud(Budget, { operations: { ${operation} } });`).some((error) =>
        error.includes(`'${name}'`),
      ),
    );
    report(
      `Typed handlers: ${caught.length} of ${mistakes.length} mistakes in handler rows and bodies fail to compile`,
    );
    expect(caught.map(([key]) => key)).toEqual(mistakes.map(([key]) => key));
  });
});
