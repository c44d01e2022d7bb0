/** `@Public()`: a route, or every route of a controller, that a request without a token may call. */
import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'isPublic';

/** Lets a request without a token through as anonymous; a token it does send is still checked. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
