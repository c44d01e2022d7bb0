/**
 * How deep a GraphQL document nests, counted before anything recursive reads it. graphql-js parses, validates and
 * executes a document by recursion, so a document nested thousands of levels deep would be stopped only by the
 * stack, at a depth that changes once V8 has optimized the code: a cold server answers 400 where a warm one fails in
 * a later pass. Two counts make the bound explicit instead:
 *
 * - before parsing, the nesting of braces, brackets and parentheses, read with graphql-js's own lexer (one token at a
 *   time, no recursion), which bounds the parser and every literal argument;
 * - after parsing, the nesting of selections with fragment spreads followed (a spread counts as a level), worked out
 *   fragment by fragment without recursion across spreads, which bounds validation and execution.
 */
import {
  GraphQLError,
  Kind,
  Lexer,
  Source,
  TokenKind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** The default `maxDepth` of `createSvcGraphqlHandler`: far past what GraphiQL's introspection query nests (about 15). */
export const DEFAULT_MAX_DOCUMENT_DEPTH = 100;
/** The highest `maxDepth` a handler takes: what every recursive pass of graphql-js can take on any stack. */
export const MAX_CONFIGURABLE_DOCUMENT_DEPTH = 1000;

const OPENING: ReadonlySet<string> = new Set([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING: ReadonlySet<string> = new Set([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/**
 * Whether the text nests braces, brackets and parentheses (outside strings and comments) more than `max` deep. A text
 * the lexer cannot read is left to the parser, which reports the syntax error.
 */
export function nestsTooDeep(source: string | Source, max: number): boolean {
  const lexer = new Lexer(typeof source === 'string' ? new Source(source) : source);
  let depth = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (OPENING.has(token.kind)) {
        if (++depth > max) return true;
      } else if (CLOSING.has(token.kind)) depth--;
    }
  } catch (error) {
    if (error instanceof GraphQLError) return false;
    throw error;
  }
  return false;
}

/**
 * How deep the selections of `document` nest with fragment spreads followed, each spread a level; counting stops once
 * past `max`. A spread of an unknown fragment or one that closes a cycle counts as empty: validation reports both.
 */
export function selectionDepth(document: DocumentNode, max: number): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const depths = new Map<string, number>();
  const open = new Set<string>();

  // Recursive within one selection set only: the lexical bound keeps that within `max` levels.
  const depthOf = (set: SelectionSetNode, missing: string[]): number => {
    let deepest = 0;
    for (const selection of set.selections) {
      let inner = 0;
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const name = selection.name.value;
        const known = depths.get(name);
        if (known !== undefined) inner = known;
        else if (fragments.has(name) && !open.has(name)) missing.push(name);
      } else if (selection.selectionSet) {
        inner = depthOf(selection.selectionSet, missing);
      }
      deepest = Math.max(deepest, 1 + inner);
    }
    return deepest;
  };

  // Each fragment once its spreads are known, depth first with a stack of our own rather than the call stack.
  let deepest = 0;
  for (const start of fragments.keys()) {
    const pending = [start];
    while (pending.length > 0) {
      const name = pending[pending.length - 1]!;
      if (depths.has(name)) {
        pending.pop();
        continue;
      }
      open.add(name);
      const missing: string[] = [];
      const depth = depthOf(fragments.get(name)!.selectionSet, missing);
      if (missing.length > 0) {
        pending.push(...missing);
        continue;
      }
      if (depth > max) return depth;
      depths.set(name, depth);
      open.delete(name);
      pending.pop();
    }
  }
  for (const definition of document.definitions)
    if (definition.kind === Kind.OPERATION_DEFINITION)
      deepest = Math.max(deepest, depthOf(definition.selectionSet, []));
  return deepest;
}
