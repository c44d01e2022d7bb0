/** @svc/nestjs: every public export, by name. */
export { SvcModule } from './svc.module';
export type { SvcModuleAsyncOptions, SvcOptionsFactory } from './svc.module';
export { Svc } from './svc.decorator';
export { Override } from './override.decorator';
export { InjectSvc } from './inject-svc.decorator';
export { SvcRegistry } from './svc-registry';
export { classValidatorSchemas } from './class-validator-schemas';
export { ProblemDetailsFilter } from './problem-details.filter';
export { svcToken, SVC_OPTIONS } from './svc.constants';
export type { SvcModuleOptions, SvcGraphqlSwitch, SvcMcpSwitch } from './svc-module-options';
