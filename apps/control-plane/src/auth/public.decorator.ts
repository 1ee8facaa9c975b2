import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'sessionboxer:public';

/**
 * A route anyone may call without signing in: health, sign-in itself, and webhooks that
 * carry their own proof (GitHub's signature). Everything else needs a signed-in person.
 */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);
