/** The part of the Standard Schema v1 interface (zod, valibot, arktype: anything with `~standard`) that Svc uses. */

/** The part of the Standard Schema v1 interface Svc uses. */
export interface StandardSchemaV1 {
  readonly '~standard': {
    readonly version?: 1;
    readonly vendor?: string;
    validate(value: unknown): StandardResult | Promise<StandardResult>;
  };
}

export type StandardIssue = {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[];
};
export type StandardResult =
  { readonly value: unknown; readonly issues?: undefined } | { readonly issues: readonly StandardIssue[] };
