/**
 * Parsed and validated operations, kept by their text: clients send the same few queries over and over, and parsing
 * and validating one costs more than running it. Bounded (least recently used out), and only for documents that
 * passed validation against the handler's one schema and rules; a document with errors is checked every time.
 */
import {
  parse,
  validate,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  type Source,
  type ValidationRule,
} from 'graphql';

/** Queries longer than this are parsed every time (no entry of unbounded size). */
const MAX_CACHED_LENGTH = 20_000;

export class DocumentCache {
  private readonly documents = new Map<string, DocumentNode>();
  private readonly valid = new WeakSet<DocumentNode>();

  /**
   * @param capacity how many documents are kept
   * @param parseText how a text not kept is parsed (graphql's `parse`, or the handler's bounded parse)
   */
  constructor(
    private readonly capacity: number,
    private readonly parseText: typeof parse = parse,
  ) {}

  /** Like graphql's `parse`, answering a text seen before with the same document. */
  readonly parse = (source: string | Source, options?: Parameters<typeof parse>[1]): DocumentNode => {
    const text = typeof source === 'string' ? source : source.body;
    const cached = this.documents.get(text);
    if (cached) {
      this.documents.delete(text);
      this.documents.set(text, cached);
      return cached;
    }
    const document = this.parseText(source, options);
    if (text.length <= MAX_CACHED_LENGTH) {
      this.documents.set(text, document);
      if (this.documents.size > this.capacity) this.documents.delete(this.documents.keys().next().value!);
    }
    return document;
  };

  /** Like graphql's `validate`; a document that passed once (with this handler's schema and rules) passes again. */
  readonly validate = (
    schema: GraphQLSchema,
    document: DocumentNode,
    rules?: readonly ValidationRule[],
  ): readonly GraphQLError[] => {
    if (this.valid.has(document)) return [];
    const errors = validate(schema, document, rules);
    if (errors.length === 0) this.valid.add(document);
    return errors;
  };
}
