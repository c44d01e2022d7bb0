/** Collects every problem of one request so they are reported together in one 400. */
import { QueryInvalidException, QueryUnsupportedParamException, type SvcErrorItem } from './svc-exception';

export class QueryErrors {
  private readonly invalid: SvcErrorItem[] = [];
  private readonly unsupported: SvcErrorItem[] = [];

  add(param: string, code: string, detail: string): void {
    this.invalid.push({ param, code, detail });
  }

  unsupportedParam(param: string, detail: string): void {
    this.unsupported.push({ param, code: 'unsupported_param', detail });
  }

  get empty(): boolean {
    return this.invalid.length === 0 && this.unsupported.length === 0;
  }

  /** Throws the collected problems; unsupported parameters win, since they say the request was not understood. */
  throwIfAny(): void {
    if (this.unsupported.length > 0) throw new QueryUnsupportedParamException([...this.unsupported, ...this.invalid]);
    if (this.invalid.length > 0) throw new QueryInvalidException(this.invalid);
  }
}
