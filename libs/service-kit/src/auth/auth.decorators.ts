import {
  applyDecorators,
  createParamDecorator,
  type ExecutionContext,
  SetMetadata,
  UnauthorizedException,
  UseGuards,
} from '@nestjs/common';
import { ApiAdminOnly, ApiSignedIn } from '../openapi/openapi-responses';
import { AUTH_REQUIREMENT, AuthGuard, type AuthenticatedRequest, type AuthRequirement } from './auth.guard';
import type { AuthenticatedUser } from './token-claims';

/** The route needs a valid, unrevoked token (401 otherwise); its OpenAPI operation says so. */
export function Authenticated(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(AUTH_REQUIREMENT, 'signed-in' satisfies AuthRequirement),
    UseGuards(AuthGuard),
    ApiSignedIn(),
  );
}

/** The route needs a valid token of an admin (401 without one, 403 for a non-admin); so does its OpenAPI operation. */
export function AdminOnly(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(AUTH_REQUIREMENT, 'admin' satisfies AuthRequirement),
    UseGuards(AuthGuard),
    ApiAdminOnly(),
  );
}

/** The signed-in user of an `@Authenticated()` or `@AdminOnly()` route: `{ id, isAdmin, issuedAt }`. */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedUser => {
    const user = context.switchToHttp().getRequest<AuthenticatedRequest>().user;
    // A handler that forgot its guard must fail closed, not run for nobody.
    if (!user) throw new UnauthorizedException('Not signed in');
    return user;
  },
);
