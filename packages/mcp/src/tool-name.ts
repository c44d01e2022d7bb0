/** Tool names: `<entity>_<operation>` in snake case, within the MCP tool-name rule. */
import { ConfigurationException } from '@svc/core';

/** What MCP allows in a tool name. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** `BookReview` -> `book_review`, `findMany` -> `find_many`, `HTTPLog` -> `http_log`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^a-zA-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}

/** The tool of one entity's operation (`book_find_many`); a name outside the rule is a bootstrap error. */
export function toolNameOf(entity: string, operation: string): string {
  const name = `${snakeCase(entity)}_${snakeCase(operation)}`;
  if (!TOOL_NAME_PATTERN.test(name))
    throw new ConfigurationException({
      entity,
      path: `mcp tool ${operation}`,
      message: `makes the tool name '${name}', which MCP refuses (letters, digits, _ and -, at most 64). Shorten the entity name.`,
    });
  return name;
}
