/**
 * createMcpServer over a transport that hands the server each message as parsed JSON (as stdio does), without an HTTP
 * layer: a `tools/call` whose arguments hold an own `__proto__` key, which the SDK's parse of the request leaves out,
 * reaches the tool with that key and is refused as any unknown argument is. Over core's in-memory adapter.
 */
import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { createSvc, type SvcOptions } from '@svc/core';
import { createMcpServer, SvcToolset } from '@svc/mcp';
import { MemoryRepositoryAdapter } from '../../core/test/support/memory-adapter';
import { BOOK_METADATA } from '../../core/test/support/fixtures';

type Answer = { id?: unknown; result?: { isError?: boolean; structuredContent?: Record<string, unknown> } };

/** A connected server and a way to send it raw JSON text, answered by the message of the same id. */
async function connect(): Promise<{ send: (text: string) => Promise<Answer>; close: () => Promise<void> }> {
  const svc = createSvc({} as SvcOptions);
  svc.createCrud(BOOK_METADATA.target, {}, { adapter: new MemoryRepositoryAdapter(BOOK_METADATA, []) });
  const server = createMcpServer(new SvcToolset({ svc }), {}, {});
  const [client, served] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<unknown, (answer: Answer) => void>();
  client.onmessage = (message) => waiting.get((message as Answer).id)?.(message as Answer);
  await server.connect(served);
  await client.start();
  let next = 0;
  const send = (text: string) =>
    new Promise<Answer>((resolve) => {
      const message = JSON.parse(text) as JSONRPCMessage & { id: number };
      waiting.set(message.id, resolve);
      void client.send(message);
    });
  const hello = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
  await send(JSON.stringify({ jsonrpc: '2.0', id: next++, method: 'initialize', params: hello }));
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    send: (args) =>
      send(
        `{"jsonrpc":"2.0","id":${next++},"method":"tools/call","params":{"name":"book_find_many","arguments":${args}}}`,
      ),
    close: () => server.close(),
  };
}

describe('createMcpServer', () => {
  describe('when a tools/call sends an own __proto__ argument', () => {
    it('refuses it with SVC_QUERY_UNSUPPORTED_PARAM naming __proto__, whatever its value', async () => {
      const { send, close } = await connect();
      try {
        for (const value of ['{"limit":1}', '1', 'null', '[]']) {
          const answer = await send(`{"__proto__":${value}}`);
          expect(answer.result?.isError).toBe(true);
          expect(answer.result?.structuredContent).toMatchObject({
            code: 'SVC_QUERY_UNSUPPORTED_PARAM',
            errors: [{ param: '__proto__', code: 'unknown' }],
          });
        }
        // The arguments the SDK keeps still run: a call without the key answers its page.
        expect((await send('{"limit":1}')).result?.isError).toBeFalsy();
      } finally {
        await close();
      }
    });
  });
});
