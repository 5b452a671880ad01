import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { adminGroupListSchema, adminGroupSchema, OfficeGroups, type AdminAct } from '@letterbox/admin';
import { ApiZodBody, ApiZodPath, ApiZodResponse, ZodValidationPipe } from '@letterbox/http';
import { groupChangesBody, idParams, newGroupBody } from './admin-request.schemas';
import { CurrentAdmin, OfficeAdminGuard } from './office-admin.guard';

type IdParams = z.infer<typeof idParams>;

@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(OfficeAdminGuard)
@Controller('v2/admin/groups')
export class AdminGroupsController {
  constructor(private readonly groups: OfficeGroups) {}

  @Get()
  @ApiZodResponse(200, adminGroupListSchema)
  async list(@CurrentAdmin() admin: AdminAct) {
    return { groups: await this.groups.list(admin.officeId) };
  }

  /** A team address delivered to each member; members are users and groups of the office (422 otherwise). 409: the address exists. */
  @Post()
  @ApiZodBody(newGroupBody)
  @ApiZodResponse(201, adminGroupSchema)
  create(@CurrentAdmin() admin: AdminAct, @Body(new ZodValidationPipe(newGroupBody, 'body')) body: z.infer<typeof newGroupBody>) {
    return this.groups.create(admin, body);
  }

  @Get(':id')
  @ApiZodPath(idParams)
  @ApiZodResponse(200, adminGroupSchema)
  get(@CurrentAdmin() admin: AdminAct, @Param(new ZodValidationPipe(idParams, 'path')) params: IdParams) {
    return this.groups.get(admin.officeId, params.id);
  }

  /** Renames, or replaces its user or group members. 409: the group would contain itself, through any depth of groups. */
  @Patch(':id')
  @ApiZodPath(idParams)
  @ApiZodBody(groupChangesBody)
  @ApiZodResponse(200, adminGroupSchema)
  change(
    @CurrentAdmin() admin: AdminAct,
    @Param(new ZodValidationPipe(idParams, 'path')) params: IdParams,
    @Body(new ZodValidationPipe(groupChangesBody, 'body')) body: z.infer<typeof groupChangesBody>,
  ) {
    return this.groups.update(admin, params.id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiZodPath(idParams)
  async remove(@CurrentAdmin() admin: AdminAct, @Param(new ZodValidationPipe(idParams, 'path')) params: IdParams): Promise<void> {
    await this.groups.remove(admin, params.id);
  }
}
