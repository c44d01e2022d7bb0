/** Resolves `include=` (plus include.default and include.apply) into a checked tree of relations to embed. */
import { suggestion } from '../config/did-you-mean';
import type { ApplyArgs } from '../config/entity-config';
import type { IncludeConfig } from '../config/include-config';
import type { ResolvedEntity } from './resolved-entity';
import { ConfigurationException } from '../errors/configuration-exception';

import type { QueryErrors } from '../errors/query-errors';
import type { IncludeNode, IncludeRequest } from '../query/include-tree';
import { roleView } from '../query/related-reach';

export type { IncludeNode, IncludeRequest };

/** What resolving an include needs of the entity it starts from. */
export type IncludeRoot = Pick<ResolvedEntity, 'name' | 'include' | 'select' | 'peer'>;

export async function resolveInclude(
  entity: IncludeRoot,
  request: IncludeRequest,
  errors: QueryErrors,
  args: ApplyArgs,
): Promise<IncludeNode[]> {
  const config = entity.include;
  const forced = config.apply ? ((await config.apply(args)) ?? []) : [];
  const requested = request.include === undefined ? [] : request.include.split(',').map((path) => path.trim());
  const roots: IncludeNode[] = [];
  // Each node's target as the entity that serves it, to walk on to its own include config and peers.
  const served = new Map<IncludeNode, ResolvedEntity>();
  let nodes = 0;
  const add = (path: string, param: string, server: boolean) => {
    const segments = path.split('.');
    let level = roots;
    let owner: IncludeRoot | undefined = entity;
    let ownerConfig: IncludeConfig | undefined = config;
    for (let depth = 0; depth < segments.length; depth++) {
      const name = segments[depth]!;
      const prefix = segments.slice(0, depth + 1).join('.');
      const existing = level.find((node) => node.name === name);
      if (existing) {
        level = existing.children;
        owner = served.get(existing);
        ownerConfig = owner?.include;
        continue;
      }
      const includable = ownerConfig?.relations.get(name);
      if (!includable) {
        const problem = `'${prefix}' is not includable.${suggestion(name, ownerConfig?.relations.keys() ?? [])}`;
        if (server) throw new ConfigurationException({ entity: entity.name, path: param, message: problem });
        errors.add(param, 'not_includable', problem);
        return;
      }
      // relations.<name>.read.maxDepth overrides include.limits.maxDepth for paths through that relation, either way.
      const limit = config.relations.get(segments[0]!)?.maxDepth ?? config.maxDepth;
      if (segments.length > limit) {
        errors.add(param, 'too_deep', `'${path}' is ${segments.length} levels deep; the limit is ${limit}.`);
        return;
      }
      if (++nodes > config.maxNodes) {
        errors.add(param, 'too_many', `include names more than ${config.maxNodes} relations. Include fewer.`);
        return;
      }
      // The target as the caller's role sees it (`access`): its fields, and the relations it may include further.
      const peer = owner?.peer(includable.relation.target);
      const target = peer && roleView(peer, args.context);
      const node: IncludeNode = {
        path: prefix,
        name,
        relation: includable.relation,
        strategy: includable.strategy,
        target,
        ...(includable.values ? { values: includable.values } : {}),
        children: [],
      };
      level.push(node);
      if (target) served.set(node, target);
      level = node.children;
      owner = target;
      ownerConfig = target?.include;
    }
  };
  for (const path of config.default) add(path, 'include.default', true);
  for (const path of forced) add(path, 'include.apply', true);
  for (const path of requested) {
    if (path.length === 0) errors.add('include', 'malformed', 'include has an empty path. Write include=author,tags.');
    else add(path, 'include', false);
  }
  applySelects(roots, request.selects, errors);
  return roots;
}

function applySelects(
  roots: IncludeNode[],
  selects: ReadonlyMap<string, string> | undefined,
  errors: QueryErrors,
): void {
  for (const [path, value] of selects ?? []) {
    const param = `select[${path}]`;
    const node = findNode(roots, path.split('.'));
    if (!node) {
      errors.add(
        param,
        'not_included',
        `${param} projects '${path}', which the request does not include. Add it to include.`,
      );
      continue;
    }
    const allowed = node.target?.select.fields;
    const names = value.split(',').map((name) => name.trim());
    const hidden = node.relation.hiddenTargetFields ?? [];
    const embedded = node.relation.embeddedTargetFields ?? [];
    const bad = names.filter((name) =>
      allowed
        ? !allowed.includes(name)
        : name.length === 0 || (name.includes('.') && !embedded.includes(name)) || hidden.includes(name),
    );
    if (bad.length > 0) {
      errors.add(
        param,
        'field_not_selectable',
        `'${bad[0]}' is not a selectable field of ${node.relation.targetName}.${suggestion(bad[0]!, allowed ?? [])}`,
      );
      continue;
    }
    (node as { select?: readonly string[] }).select = names;
  }
}

function findNode(level: readonly IncludeNode[], segments: readonly string[]): IncludeNode | undefined {
  const node = level.find((candidate) => candidate.name === segments[0]);
  if (!node || segments.length === 1) return node;
  return findNode(node.children, segments.slice(1));
}
