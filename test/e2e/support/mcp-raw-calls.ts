/**
 * A `tools/call` POSTed as raw JSON text, on either protocol revision, with no client between the test and the
 * server: what the text says reaches the server's JSON parser as written (an own `__proto__` key, thousands of levels
 * of nesting), which an SDK client, building its request from a JavaScript object, cannot send.
 */

export type McpRevision = '2025-11-25' | '2026-07-28';

export const MCP_REVISIONS: readonly McpRevision[] = ['2025-11-25', '2026-07-28'];

export interface RawToolCall {
  /** The tool's name. */
  readonly name: string;
  /** The `arguments` member, as JSON text. */
  readonly args: string;
  readonly revision: McpRevision;
  readonly headers?: Record<string, string>;
}

/** What came back: the HTTP status, and the JSON-RPC answer when the body was one. */
export interface RawToolAnswer {
  readonly status: number;
  readonly text: string;
  readonly result?: { isError?: boolean; structuredContent?: Record<string, unknown> };
  readonly error?: { code: number; message: string };
}

/** The 2026-07-28 revision's per-request envelope: each request names its revision, client and capabilities. */
const ENVELOPE = JSON.stringify({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
});

export async function callToolRaw(url: string, call: RawToolCall): Promise<RawToolAnswer> {
  const modern = call.revision === '2026-07-28';
  const meta = modern ? `"_meta":${ENVELOPE},` : '';
  const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{${meta}"name":${JSON.stringify(call.name)},"arguments":${call.args}}}`;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': call.revision,
      ...(modern ? { 'mcp-method': 'tools/call', 'mcp-name': call.name } : {}),
      ...call.headers,
    },
    body,
  });
  const text = await response.text();
  // An event stream carries the answer as the data of its one message.
  const json = /^event: message\ndata: (.*)$/m.exec(text)?.[1] ?? text;
  let answer: Pick<RawToolAnswer, 'result' | 'error'> = {};
  try {
    answer = JSON.parse(json) as typeof answer;
  } catch {
    // Not JSON-RPC (a platform's own refusal): the status and text say what happened.
  }
  return { status: response.status, text, result: answer.result, error: answer.error };
}
