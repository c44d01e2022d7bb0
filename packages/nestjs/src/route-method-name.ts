/** How a generated route's controller method is named, so the route and the guards of its operation find one method. */
import type { SvcRoute } from '@svc/core/spi';

/** The name of the controller method a generated route is defined as. */
export function routeMethodName(route: Pick<SvcRoute, 'method' | 'path'>): string {
  return `svc_${route.method}_${route.path.replace(/\W/g, '_')}`;
}
