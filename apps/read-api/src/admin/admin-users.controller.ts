import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { AddUser, adminUserPageSchema, adminUserSchema, ChangeUser, RemoveUser, UserAliases, UserDirectory, type AdminAct } from '@letterbox/admin';
import { ApiZodBody, ApiZodPath, ApiZodQuery, ApiZodResponse, ZodValidationPipe } from '@letterbox/http';
import { aliasBody, aliasParams, idParams, newUserBody, userChangesBody, userListQuery } from './admin-request.schemas';
import { CurrentAdmin, OfficeAdminGuard } from './office-admin.guard';

type IdParams = z.infer<typeof idParams>;

@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(OfficeAdminGuard)
@Controller('v2/admin/users')
export class AdminUsersController {
  constructor(
    private readonly directory: UserDirectory,
    private readonly adding: AddUser,
    private readonly changing: ChangeUser,
    private readonly removing: RemoveUser,
    private readonly aliases: UserAliases,
  ) {}

  /** The office's users in order of address, a page at a time; `q` finds a part of an address or a name. */
  @Get()
  @ApiZodQuery(userListQuery)
  @ApiZodResponse(200, adminUserPageSchema)
  list(@CurrentAdmin() admin: AdminAct, @Query(new ZodValidationPipe(userListQuery, 'query')) query: z.infer<typeof userListQuery>) {
    return this.directory.list(admin.officeId, query);
  }

  /** A user with an initial password they must change at first sign-in. 409: the address exists; 422: not a domain of the office. */
  @Post()
  @ApiZodBody(newUserBody)
  @ApiZodResponse(201, adminUserSchema)
  create(@CurrentAdmin() admin: AdminAct, @Body(new ZodValidationPipe(newUserBody, 'body')) body: z.infer<typeof newUserBody>) {
    return this.adding.add(admin, body);
  }

  @Get(':id')
  @ApiZodPath(idParams)
  @ApiZodResponse(200, adminUserSchema)
  get(@CurrentAdmin() admin: AdminAct, @Param(new ZodValidationPipe(idParams, 'path')) params: IdParams) {
    return this.directory.get(admin.officeId, params.id);
  }

  /**
   * Name, role, quota (null: the default) or state; `password` resets it. Disabling, a reset and a demotion end
   * every token of the user at once. 409: the office's last active administrator demoted or disabled.
   */
  @Patch(':id')
  @ApiZodPath(idParams)
  @ApiZodBody(userChangesBody)
  @ApiZodResponse(200, adminUserSchema)
  change(
    @CurrentAdmin() admin: AdminAct,
    @Param(new ZodValidationPipe(idParams, 'path')) params: IdParams,
    @Body(new ZodValidationPipe(userChangesBody, 'body')) body: z.infer<typeof userChangesBody>,
  ) {
    return this.changing.change(admin, params.id, body);
  }

  /** The account, its mail rows (its blobs then collected) and every token of it. 409: the last active administrator. */
  @Delete(':id')
  @HttpCode(204)
  @ApiZodPath(idParams)
  async remove(@CurrentAdmin() admin: AdminAct, @Param(new ZodValidationPipe(idParams, 'path')) params: IdParams): Promise<void> {
    await this.removing.remove(admin, params.id);
  }

  /** An extra address of the user, in a domain of the office (422), that no one has (409). */
  @Post(':id/aliases')
  @ApiZodPath(idParams)
  @ApiZodBody(aliasBody)
  @ApiZodResponse(201, adminUserSchema)
  addAlias(
    @CurrentAdmin() admin: AdminAct,
    @Param(new ZodValidationPipe(idParams, 'path')) params: IdParams,
    @Body(new ZodValidationPipe(aliasBody, 'body')) body: z.infer<typeof aliasBody>,
  ) {
    return this.aliases.add(admin, params.id, body.address);
  }

  @Delete(':id/aliases/:address')
  @HttpCode(204)
  @ApiZodPath(aliasParams)
  async removeAlias(@CurrentAdmin() admin: AdminAct, @Param(new ZodValidationPipe(aliasParams, 'path')) params: z.infer<typeof aliasParams>): Promise<void> {
    await this.aliases.remove(admin, params.id, params.address);
  }
}
