/** The bootstrap error: names the entity, the key path and the operation or column at fault. */
import { SvcException } from './svc-exception';

export interface ConfigurationProblem {
  /** Entity class name, when the problem belongs to one. */
  readonly entity?: string;
  /** Dotted key path inside the config, for example `operations.findMany.pagination.maxLimit`. */
  readonly path?: string;
  /** What is wrong and what to do. */
  readonly message: string;
}

/** Raised at bootstrap (or for faults of server code found at request time) with code SVC_CONFIG_INVALID. */
export class ConfigurationException extends SvcException {
  override readonly entity?: string;
  readonly path?: string;

  constructor(problem: ConfigurationProblem) {
    const where = [problem.entity, problem.path].filter(Boolean).join(': ');
    super('SVC_CONFIG_INVALID', { detail: where ? `${where}: ${problem.message}` : problem.message });
    this.entity = problem.entity;
    this.path = problem.path;
  }
}
