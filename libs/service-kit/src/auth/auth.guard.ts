import {
  type CanActivate,
  type ExecutionContext,
  ForbiddenException,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedUser } from './token-claims';
import { TokenVerifier } from './token-verifier';

export const AUTH_REQUIREMENT = 'shop:auth-requirement';
export type AuthRequirement = 'signed-in' | 'admin';

export const MISSING_TOKEN_MESSAGE = 'Not signed in';
export const ADMIN_ONLY_MESSAGE = 'Admin access required';

/** The request as the guard leaves it: the verified user attached. */
export type AuthenticatedRequest = FastifyRequest & { user?: AuthenticatedUser };

/** The bearer token of an `Authorization` header, or undefined when there is none. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header);
  return match?.[1];
}

/**
 * Enforces `@Authenticated()` and `@AdminOnly()`: 401 without a valid token, 403 for a signed-in
 * non-admin on an admin route. Routes without either decorator are left alone.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: TokenVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const requirement = this.reflector.getAllAndOverride<AuthRequirement | undefined>(AUTH_REQUIREMENT, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!requirement) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = bearerToken(request.headers.authorization);
    if (!token) throw new UnauthorizedException(MISSING_TOKEN_MESSAGE);
    const user = await this.verifier.verify(token);
    if (requirement === 'admin' && !user.isAdmin) throw new ForbiddenException(ADMIN_ONLY_MESSAGE);
    request.user = user;
    return true;
  }
}
