/**
 * Every operation runs a stage list resolved once, when the engine is built: what the configuration decides (a
 * handler, a policy, a query gate, an adapter that returns written rows, a success status, an output validator) is
 * settled in the list, and what depends on the caller stays a named branch.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSvc, type EntityConfig, type Row } from '@svc/core';
import { TransactionFailedException } from '../../src/errors/svc-exception';
import type { OperationCall } from '../../src/pipeline/operation-call';
import { ConfigurationException } from '../../src/errors/configuration-exception';
import {
  branch,
  checkPhases,
  checkStages,
  runStages,
  stage,
  stageNames,
  transaction,
  type FlowState,
  type StateWith,
} from '../../src/pipeline/stage';
import { guardStage } from '../../src/pipeline/stages/guard-stage';
import { lookupStage } from '../../src/pipeline/stages/lookup-stage';
import { emptyOutputStage } from '../../src/pipeline/stages/output-stage';
import { deleteStage } from '../../src/operations/delete-operations';
import { loadStage } from '../../src/operations/read-operations';
import { handledOutcomeStage, handlerStage } from '../../src/operations/run-handler';
import { MemoryRepositoryAdapter } from '../support/memory-adapter';
import { BOOK_METADATA } from '../support/fixtures';

/** The memory adapter, saying that its writes return the stored row (as PostgreSQL's RETURNING does). */
class ReturningMemoryAdapter extends MemoryRepositoryAdapter {
  readonly returnsWrittenRows = true;
}

function stagesOf(
  operation: string,
  config: Record<string, unknown> = {},
  options: { returning?: boolean; jsonPatch?: boolean } = {},
) {
  const adapter = options.returning
    ? new ReturningMemoryAdapter(BOOK_METADATA, [])
    : new MemoryRepositoryAdapter(BOOK_METADATA, []);
  const service = createSvc({}).createCrud(BOOK_METADATA.target, config as EntityConfig, { adapter });
  return service.engine.stagesOf(operation, { jsonPatch: options.jsonPatch });
}

const allow = () => true;
const PASS_SCHEMA = {
  '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) },
};

describe('operation stage lists', () => {
  describe('the reads', () => {
    it('findMany reads through the result cache: plan, read, envelope, includes', () => {
      expect(stagesOf('findMany')).toEqual(['cached(plan, read, envelope, includes)', 'afterCommit']);
    });

    it('findMany asks its policy first and its query gate next, only when it has them', () => {
      const config = { policy: allow, operations: { findMany: { schema: { query: PASS_SCHEMA } } } };
      expect(stagesOf('findMany', config)).toEqual([
        'policy',
        'query',
        'cached(plan, read, envelope, includes)',
        'afterCommit',
      ]);
    });

    it('findOne gives its policy the row it loaded, inside the cache, then answers 304 on a match', () => {
      expect(stagesOf('findOne', { policy: allow })).toEqual([
        'lookup',
        'shape',
        'cached(load, policy, output)',
        'notModified',
        'afterCommit',
      ]);
    });

    it('a replaced findMany runs the handler where the built-in read was', () => {
      const handler = () => ({ entities: [] as Row[], total: 0 });
      expect(stagesOf('findMany', { operations: { findMany: { handler } } })).toEqual([
        'cached(plan, handler, envelope, includes)',
        'afterCommit',
      ]);
    });
  });

  describe('the writes', () => {
    it('createOne on an adapter that returns written rows may insert in one statement', () => {
      expect(stagesOf('createOne', {}, { returning: true })).toEqual([
        'refuseIfMatch',
        'input',
        'lean ? (insertAlone) : (transaction(references, insert, reread))',
        'outcome',
        'output',
        'afterCommit',
      ]);
    });

    it('createOne on an adapter that does not return written rows only lists the transaction', () => {
      expect(stagesOf('createOne')).toEqual([
        'refuseIfMatch',
        'input',
        'transaction(references, insert, reread)',
        'outcome',
        'output',
        'afterCommit',
      ]);
    });

    it('patchOne guards the row in its transaction; without a policy it may write alone', () => {
      expect(stagesOf('patchOne', {}, { returning: true })).toEqual([
        'input',
        'lookup',
        'lean ? (updateAlone) : (transaction(guard, references, update, reread))',
        'outcome',
        'output',
        'afterCommit',
      ]);
    });

    it('a policy rules the one-statement update out at bootstrap: the guard must give it the row', () => {
      expect(stagesOf('updateOne', { policy: allow }, { returning: true })).toEqual([
        'input',
        'lookup',
        'transaction(guard, references, update, reread)',
        'outcome',
        'output',
        'afterCommit',
      ]);
    });

    it('the delete family guards the row whether deleted or not, then makes its own write', () => {
      expect(stagesOf('deleteOne')).toEqual([
        'lookup',
        'transaction(guard, delete)',
        'outcome',
        'output',
        'afterCommit',
      ]);
      expect(stagesOf('restoreOne')).toEqual([
        'lookup',
        'transaction(guard, restore)',
        'outcome',
        'output',
        'afterCommit',
      ]);
      expect(stagesOf('purgeOne')).toEqual(['lookup', 'transaction(guard, purge)', 'outcome', 'output', 'afterCommit']);
    });

    it('a replaced write keeps the guard: the handler runs on the locked row, in the same transaction', () => {
      const handler = (input: { body?: unknown }) => input.body;
      expect(stagesOf('updateOne', { operations: { updateOne: { handler } } })).toEqual([
        'input',
        'lookup',
        'transaction(guard, handler)',
        'outcome',
        'output',
        'afterCommit',
      ]);
    });

    it('a JSON Patch document on an entity that takes none is refused before anything runs', () => {
      expect(stagesOf('patchOne', {}, { jsonPatch: true })).toEqual(['refuseJsonPatch', 'afterCommit']);
    });
  });

  describe('the ends every list shares', () => {
    it('a success status set in meta.routes and an output validator close the list', () => {
      const config = {
        schema: { output: { item: PASS_SCHEMA } },
        operations: { findOne: { meta: { routes: { successStatus: 203 } } } },
      };
      expect(stagesOf('findOne', config)).toEqual([
        'lookup',
        'shape',
        'cached(load, output)',
        'notModified',
        'successStatus',
        'afterCommit',
        'assertOutput',
      ]);
    });
  });

  describe('custom operations', () => {
    it('a custom write guards the row when it is called by id, and gives the policy the body when it is not', () => {
      const config = {
        policy: allow,
        operations: { archiveBookOne: { kind: 'write', realtimeEvent: 'updated', handler: () => undefined } },
      };
      expect(stagesOf('archiveBookOne', config)).toEqual([
        'refuseIfMatch',
        'lookup?',
        'input',
        'byId ? (transaction(guard, handler, readAfter)) : (policy, transaction(handler))',
        'outcome',
        'output',
        'afterCommit',
      ]);
    });

    it('a custom read resolves the query like findMany, then hands the plan to its handler', () => {
      const config = {
        operations: { cheapBooksMany: { kind: 'read', cardinality: 'many', handler: () => undefined } },
      };
      expect(stagesOf('cheapBooksMany', config)).toEqual([
        'refuseIfMatch',
        'lookup?',
        'plan',
        'handler',
        'output',
        'afterCommit',
      ]);
    });
  });
});

describe('runStages', () => {
  const adapter = new MemoryRepositoryAdapter(BOOK_METADATA, []);
  const call = { entity: { adapter } } as unknown as OperationCall;
  const trace = (log: string[], name: string) => stage(name, { phase: 'act' }, () => void log.push(name));

  it('runs the stages in order on one state', async () => {
    const log: string[] = [];
    const state: FlowState = {};
    await runStages(
      call,
      [trace(log, 'a'), stage('b', { phase: 'act' }, async (_call, s) => void (s.work = 'b ran')), trace(log, 'c')],
      state,
    );
    expect(log).toEqual(['a', 'c']);
    expect(state.work).toBe('b ran');
  });

  it('after a failure runs only the stages marked always, then rethrows the first failure', async () => {
    const log: string[] = [];
    const first = new Error('first');
    const stages = [
      stage('fails', { phase: 'act' }, () => {
        throw first;
      }),
      trace(log, 'skipped'),
      stage('after-commit', { phase: 'afterCommit', always: true }, () => void log.push('always')),
    ];
    await expect(runStages(call, stages, {})).rejects.toBe(first);
    expect(log).toEqual(['always']);
  });

  it('retries a transaction whole on a transaction failure, each attempt with its own session, none after', async () => {
    let attempts = 0;
    const sessions: unknown[] = [];
    const state: FlowState = {};
    const flaky = stage('flaky', { phase: 'act' }, (_call, s) => {
      sessions.push(s.session);
      if (++attempts < 2) throw new TransactionFailedException(new Error('deadlock'));
    });
    await runStages(call, [transaction(flaky)], state);
    expect(attempts).toBe(2);
    expect(sessions.every((session) => session !== undefined)).toBe(true);
    expect(state.session).toBeUndefined();
  });

  it('a branch runs one list or the other, per call', async () => {
    const log: string[] = [];
    const choose = branch('even', {}, (_call, s) => s.work === 2, [trace(log, 'then')], [trace(log, 'otherwise')]);
    await runStages(call, [choose], { work: 2 });
    await runStages(call, [choose], { work: 3 });
    expect(log).toEqual(['then', 'otherwise']);
    expect(stageNames([choose])).toEqual(['even ? (then) : (otherwise)']);
  });
});

describe('the stage lists in docs/architecture/overview.md', () => {
  it('are the lists the engine resolves (a policy on every operation and a query gate on the reads)', () => {
    const gate = { schema: { query: PASS_SCHEMA } };
    const config = {
      policy: allow,
      operations: {
        ...Object.fromEntries(STANDARD.map((id) => [id, true])),
        findMany: gate,
        findOne: gate,
        publishBookOne: { kind: 'write', realtimeEvent: 'updated', handler: () => undefined },
        cheapBooksMany: { kind: 'read', cardinality: 'many', handler: () => undefined },
      },
    };
    const row = (label: string, names: readonly string[] | undefined) =>
      names ? [`| ${label} | ${names.join(' → ')} |`] : [];
    const rows = [
      ...[...STANDARD, 'publishBookOne', 'cheapBooksMany'].flatMap((operation) =>
        row(`\`${operation}\``, stagesOf(operation, config)),
      ),
      ...['createOne', 'updateOne'].flatMap((operation) =>
        row(
          `\`${operation}\`, no policy, an adapter that returns written rows`,
          stagesOf(operation, { operations: config.operations }, { returning: true }),
        ),
      ),
    ];
    const block = ['| Operation | Stages |', '|---|---|', ...rows].join('\n');
    const doc = readFileSync(join(__dirname, '../../../../docs/architecture/overview.md'), 'utf8');
    const documented = /<!-- stage-lists:start -->\n([\s\S]*?)\n<!-- stage-lists:end -->/.exec(doc)?.[1];
    expect(documented).toBe(block);
  });
});

describe('what the stages need and give', () => {
  it('stops a list whose stage needs what only a later stage gives, naming both', () => {
    const misordered = [transaction(guardStage(), deleteStage), lookupStage, emptyOutputStage];
    expect(() => checkStages('Book.deleteOne', misordered)).toThrow(
      "Book.deleteOne: the stage 'guard' needs 'lookup', which no stage before it gives; 'lookup' gives it, after it. Put 'lookup' before 'guard'.",
    );
  });

  it("takes a handler's result as a need: an outcome before the handler stops the list, naming both", () => {
    const misordered = [lookupStage, handledOutcomeStage, transaction(guardStage(), handlerStage), emptyOutputStage];
    expect(() => checkStages('Book.deleteOne', misordered)).toThrow(
      "Book.deleteOne: the stage 'outcome' needs 'result', which no stage before it gives; 'handler' gives it, after it. Put 'handler' before 'outcome'.",
    );
    const ordered = [lookupStage, transaction(guardStage(), handlerStage), handledOutcomeStage, emptyOutputStage];
    expect(() => checkStages('Book.deleteOne', ordered)).not.toThrow();
  });

  it('lets a stage in a transaction read its session, and no stage after it', () => {
    const needsSession = stage('locked', { phase: 'act', needs: ['session'] }, () => undefined);
    expect(() => checkStages('x', [transaction(needsSession)])).not.toThrow();
    expect(() => checkStages('x', [transaction(), needsSession])).toThrow("the stage 'locked' needs 'session'");
  });

  it('gives after a branch only what both of its lists give', () => {
    const gives = stage('gives', { phase: 'act', gives: ['row'] }, () => undefined);
    const needs = stage('needs', { phase: 'respond', needs: ['row'] }, () => undefined);
    const either = branch('either', {}, () => true, [gives], []);
    expect(() => checkStages('x', [either, needs])).toThrow("the stage 'needs' needs 'row'");
    expect(() => checkStages('x', [branch('both', {}, () => true, [gives], [gives]), needs])).not.toThrow();
  });

  it('takes a list that always refuses as complete, and a branch with one as giving what the other gives', () => {
    const refuse = stage('refuse', { phase: 'gate', refuses: true }, () => {
      throw new Error('refused');
    });
    const gives = stage('gives', { phase: 'act', gives: ['row'] }, () => undefined);
    const needs = stage('needs', { phase: 'respond', needs: ['row'] }, () => undefined);
    expect(checkStages('x', [refuse, needs])).toBe('ends');
    expect(() => checkStages('x', [branch('either', {}, () => true, [refuse], [gives]), needs])).not.toThrow();
  });

  it('types what a stage needs as given, and the rest as maybe absent', () => {
    stage('typed', { phase: 'act', needs: ['lookup'] }, (_call, state) => {
      const lookup: Record<string, unknown> = state.lookup;
      // @ts-expect-error not needed, so maybe undefined
      const row: Record<string, unknown> = state.row;
      return void [lookup, row];
    });
    const given: StateWith<'before'>['before'] = {};
    expect(given).toEqual({});
  });
});

describe('the phases of a list', () => {
  const site = { entity: 'Book', path: 'operations.findOne' };
  const act = stage('write', { phase: 'act' }, () => undefined);

  it('stops a list that runs a guard after an act with a ConfigurationException naming both stages', () => {
    const check = () => checkPhases(site, [lookupStage, handlerStage, loadStage, emptyOutputStage]);
    expect(check).toThrow(ConfigurationException);
    expect(check).toThrow(
      "Book: operations.findOne: runs the stage 'load' (guard) after 'handler' (act), but the phases run in the order gate, input, plan, guard, act, reread, record, respond, afterCommit, verify. Put 'load' before 'handler', or declare the phase it runs in.",
    );
  });

  it('follows the stages into a transaction, and each list of a branch from the stage before it', () => {
    expect(() => checkPhases(site, [transaction(guardStage(), act), lookupStage])).toThrow(
      "runs the stage 'lookup' (input) after 'write' (act)",
    );
    const either = branch('either', {}, () => true, [act], [loadStage]);
    expect(() => checkPhases(site, [lookupStage, either, emptyOutputStage])).not.toThrow();
    expect(() => checkPhases(site, [either, loadStage])).toThrow("runs the stage 'load' (guard) after 'write' (act)");
  });
});

const STANDARD = ['findMany', 'findOne', 'createOne', 'updateOne', 'patchOne', 'deleteOne', 'restoreOne', 'purgeOne'];
