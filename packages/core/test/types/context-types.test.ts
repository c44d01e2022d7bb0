/**
 * The context is typed by the app through declaration merging (`SvcContextTypes`). Compiled here as a program of its
 * own, so the augmentation does not leak into the rest of the repo's type check.
 */
import { compileAgainstCore } from './compile-against-core';

/** The diagnostics of `source` compiled against @svc/core's sources. */
function compile(source: string): string[] {
  return compileAgainstCore(source);
}

describe('SvcContextTypes', () => {
  it('types context.request in policy, apply and handlers once the app declares it', () => {
    const errors = compile(`
      import type { EntityConfig } from '@svc/core';
      interface AppRequest { user?: { id: number; roles: string[] }; headers: Record<string, string> }
      declare module '@svc/core' {
        interface SvcContextTypes { request: AppRequest }
      }
      export const config: EntityConfig = {
        policy: ({ context }) => context.request?.user?.roles.includes('editor') === true,
        filter: { apply: ({ context }) => ({ ownerId: { eq: context.request?.user?.id ?? -1 } }) },
        operations: {
          pingOne: { handler: (_input, context) => context.request?.headers['x-trace'] ?? null },
        },
      };
      // @ts-expect-error the declared request has no 'nope'
      export const wrong: EntityConfig = { policy: ({ context }) => context.request?.nope === 1 };
    `);
    expect(errors).toEqual([]);
  });

  it('leaves context.request unknown when the app declares nothing', () => {
    const errors = compile(`
      import type { EntityConfig } from '@svc/core';
      export const config: EntityConfig = {
        // @ts-expect-error request is unknown until the app declares its type
        policy: ({ context }) => context.request.user !== undefined,
      };
    `);
    expect(errors).toEqual([]);
  });
});
