/**
 * What a standard operation is, apart from its stages: the contract each definition in `operations/definitions/`
 * fulfils. The bootstrap checks, the entity resolution and the description read these facts (handed to them by the
 * registry, `operations/operation-registry.ts`), so no file below the registry names an operation to learn them.
 */
import type { EntityConfig } from './entity-config';
import type { RealtimeEventId, StandardOperationId, SvcSettings } from './svc-settings';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The three body write slots (`schema.input.create|update|patch`). */
export type WriteSlotName = 'create' | 'update' | 'patch';

/** What a surface words an operation of an entity with, for sentences written from the facts. */
export interface WordingSubject {
  /** The entity's name (`Book`). */
  readonly one: string;
  /** Its plural (`Books`). */
  readonly many: string;
  /** The fields a single row is looked up by, joined (`id`). */
  readonly key: string;
  /** The create slot's required fields, a required reference and its column as `a or b`, joined (`title, author`). */
  readonly required: string;
  /** The entity soft-deletes. */
  readonly softDelete: boolean;
}

export interface OperationFacts {
  readonly id: StandardOperationId;
  readonly kind: 'read' | 'write';
  readonly cardinality: 'one' | 'many';
  /** Its REST route, relative to the collection (`:id` renamed after `identifier.field`), and its success status. */
  readonly route: { readonly method: HttpMethod; readonly path: string; readonly status: number };
  /**
   * What a call carries: the addressed row's id, a body in a write slot (`items`: a JSON array of such bodies), and
   * list or item query parameters, the list grammar's `filter` alone (required: it chooses the rows a batch changes),
   * or an aggregate's (`groupBy`, the functions, `sort` and `limit`/`offset` over groups, with `filter` and `search`),
   * or a count's (the list's `filter`, `search` and row view alone).
   */
  readonly takes: {
    readonly id: boolean;
    readonly body: WriteSlotName | 'none';
    readonly items?: boolean;
    /** Its body also takes nested forms of the relations that allow them (`relations.<name>.write.nested`). */
    readonly nested?: boolean;
    readonly query: 'list' | 'item' | 'filter' | 'aggregate' | 'count' | 'none';
  };
  /**
   * What a success serves: the row, a page of rows, nothing (the row is gone), or the rows a batch wrote (`batch`:
   * `{ items, total }`, each item as the row's own write would answer it; a delete's items are primary keys), or
   * groups (`aggregate`: `{ items: [{ group, count, sum: {...}, ... }], limit, offset, total }`), or how many rows
   * match (`total`: `{ total }`).
   */
  readonly answers: 'item' | 'list' | 'none' | 'batch' | 'aggregate' | 'total';
  /** The realtime event a committed call publishes. */
  readonly event?: RealtimeEventId;
  /** If-None-Match answers 304; If-Match is checked against the locked row, or refused with 412. */
  readonly conditional: { readonly ifNoneMatch: boolean; readonly ifMatch: 'checked' | 'refused' | 'none' };
  /** The settings keys its stages read, and so the only ones its own scope takes. */
  readonly settings: readonly (keyof SvcSettings)[];
  /** The parts its `operations.<id>.schema` takes. */
  readonly schemaParts: readonly ('input' | 'output' | 'query')[];
  /** Served only where the entity soft-deletes: off unless named, refused on an entity that deletes for good. */
  readonly needsSoftDelete: boolean;
  /**
   * What its write does to the delete marker of an entity that soft-deletes: sets it (a soft delete), clears it (a
   * restore), or neither. An entity whose marker column cannot be updated in place serves none that sets or clears it.
   */
  readonly deleteMarker: 'sets' | 'clears' | 'none';
  /**
   * Off unless the entity config turns it on here (batch writes, with `batch.create` and the like): the `operations`
   * whitelist neither turns it on nor leaves it out. `operations.<id>` may still hold its settings.
   */
  readonly optIn?: { readonly path: string; readonly on: (config: EntityConfig) => boolean };
  /**
   * A batch write's one-row operation, whose rules it holds per row: that operation's own `policy` and
   * `schema.input` apply where the batch names none, the global map turning it off turns the batch off, and a
   * replacement handler of it (which a batch would bypass) stops the boot.
   */
  readonly counterpart?: StandardOperationId;
  readonly wording: {
    /** One word for a title (`Create`). */
    readonly verb: string;
    /** What a success did to the row, as a past participle, where it answers nothing (`deleted`). */
    readonly done?: string;
    /** A one-line summary (`Create a Book`). */
    readonly summary: (subject: WordingSubject) => string;
    /** A sentence for an agent: what the call does and what it takes (`Create a Book from data ...`). */
    readonly sentence: (subject: WordingSubject) => string;
  };
  /** Hints for a tool host (never a security boundary). */
  readonly hints: { readonly readOnly: boolean; readonly destructive?: boolean; readonly idempotent?: boolean };
}

/** `a Book`, `an Author`. */
export function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

/** An English plural, by the usual spelling rules: `Book` -> `Books`, `Category` -> `Categories`, `Box` -> `Boxes`. */
export function pluralOf(word: string): string {
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  return `${word}s`;
}

/** The standard list of rows (findMany's shape). */
export function listsRows(facts: OperationFacts): boolean {
  return facts.answers === 'list';
}

/** The standard read of one row by its id (findOne's shape). */
export function readsById(facts: OperationFacts): boolean {
  return facts.kind === 'read' && facts.takes.id;
}

/**
 * The standard operation of a shape: the one whose rules a custom or relation operation follows. The registry has
 * one of every shape asked for, so none found is a fault of the registry.
 */
export function standardOf(facts: Iterable<OperationFacts>, test: (facts: OperationFacts) => boolean): OperationFacts {
  for (const standard of facts) if (test(standard)) return standard;
  throw new Error('The operation registry has no standard operation of this shape.');
}
