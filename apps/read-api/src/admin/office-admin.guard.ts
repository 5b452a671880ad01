import { createParamDecorator, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { OfficeAdmins, type AdminAct } from '@letterbox/admin';
import type { AuthenticatedUser } from '@letterbox/auth';

type AdminRequest = FastifyRequest & { user?: AuthenticatedUser; adminAct?: AdminAct };

/**
 * Admin routes: after the bearer guard, the signed-in user must be an active administrator of their office,
 * asked of the database on every request (one point query), so a demotion takes effect at once. Others: 403.
 */
@Injectable()
export class OfficeAdminGuard implements CanActivate {
  constructor(private readonly admins: OfficeAdmins) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AdminRequest>();
    const { userId, officeId } = request.user as AuthenticatedUser;
    request.adminAct = await this.admins.actOf(userId, officeId, request.ip);
    return true;
  }
}

/** The act of the administrator the OfficeAdminGuard let through: their office, who they are, their address. */
export const CurrentAdmin = createParamDecorator((_data: unknown, context: ExecutionContext): AdminAct => {
  return context.switchToHttp().getRequest<AdminRequest>().adminAct as AdminAct;
});
