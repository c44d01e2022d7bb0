/**
 * The agent-tool binding for real agents, with the MCP SDK's own v1 and v2 clients: a read-only server lists only the
 * read tools and refuses a write tool called by name with nothing written, and a page of `find_many` says whether
 * more rows follow and where the next page starts.
 */
import type { EntityConfig } from '@svc/core';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { svcController } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { startMcpApp, type McpApp } from './support/mcp-app';
import { connectMcp, MCP_CLIENT_KINDS, type McpTestClient } from './support/mcp-clients';

@Entity('ml_note')
class LayoutNote {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 60 }) title!: string;
  @Column({ type: 'int', default: 0 }) words!: number;
}

const NOTES: EntityConfig = {
  pagination: { defaultLimit: 2, maxLimit: 10 },
  sort: { default: ['id'] },
  batch: { create: true, delete: true },
  aggregate: {},
};

describe.each(TEST_DATABASES)('MCP layouts on $name', (db) => {
  describe.each([
    ['read-only', true],
    ['read-write', false],
  ] as const)('a %s server', (_layout, readOnly) => {
    let t: McpApp;

    beforeAll(async () => {
      t = await startMcpApp({
        db,
        suite: `e2e_mcp_layouts_${readOnly ? 'ro' : 'rw'}`,
        entities: [LayoutNote],
        controllers: [svcController('notes', LayoutNote, NOTES)],
        mcp: readOnly ? { readOnly: true } : true,
      });
      await t.dataSource
        .getRepository(LayoutNote)
        .save(Array.from({ length: 5 }, (_, i) => ({ title: `n${i}`, words: i })));
    });

    afterAll(async () => {
      await t?.close();
    });

    const rows = () => t.dataSource.getRepository(LayoutNote).count();

    describe.each(MCP_CLIENT_KINDS)('with the %s', (kind) => {
      let client: McpTestClient;

      beforeAll(async () => {
        client = await connectMcp(kind, { url: t.url });
      });

      afterAll(async () => {
        await client?.close();
      });

      it(readOnly ? 'lists the read tools only' : 'lists the read and the write tools', async () => {
        const names = (await client.listTools()).map((tool) => tool.name).sort();
        const reads = ['layout_note_aggregate', 'layout_note_find_many', 'layout_note_find_one', 'svc_describe'];
        if (readOnly) expect(names).toEqual(reads);
        else
          expect(names).toEqual(
            expect.arrayContaining([...reads, 'layout_note_create_one', 'layout_note_create_many']),
          );
      });

      it(
        readOnly ? 'refuses a write tool called by name, writing nothing' : 'writes through a write tool',
        async () => {
          const before = await rows();
          const created = await client.callTool('layout_note_create_one', { data: { title: 'written' } });
          const many = await client.callTool('layout_note_delete_many', { filter: { title: { eq: 'none' } } });
          if (readOnly) {
            for (const result of [created, many]) {
              expect(result.isError).toBe(true);
              expect(result.structuredContent).toMatchObject({ status: 405, code: 'SVC_OPERATION_DISABLED' });
            }
            expect(await rows()).toBe(before);
          } else {
            expect(created.isError).toBeFalsy();
            expect(many.structuredContent).toMatchObject({ total: 0 });
            expect(await rows()).toBe(before + 1);
          }
        },
      );

      it('says whether more rows follow a page, and where the next page starts', async () => {
        const total = await rows();
        const first = await client.callTool('layout_note_find_many', {});
        expect(first.structuredContent).toMatchObject({ limit: 2, offset: 0, total, hasMore: true, nextOffset: 2 });
        const last = await client.callTool('layout_note_find_many', { offset: total - 1 });
        expect(last.structuredContent).toMatchObject({ offset: total - 1, total, hasMore: false });
        expect(last.structuredContent).not.toHaveProperty('nextOffset');
      });

      it('serves the aggregate tool in every layout', async () => {
        const res = await client.callTool('layout_note_aggregate', { sum: ['words'] });
        expect(res.isError).toBeFalsy();
        expect(res.structuredContent).toMatchObject({ items: [{ group: {}, count: await rows() }], total: 1 });
      });
    });
  });
});
