import { Controller, Delete, Get, HttpCode, Param, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { OfficeSuppressions, suppressionPageSchema, type AdminAct } from '@letterbox/admin';
import { ApiZodPath, ApiZodQuery, ApiZodResponse, ZodValidationPipe } from '@letterbox/http';
import { idParams, suppressionListQuery } from './admin-request.schemas';
import { CurrentAdmin, OfficeAdminGuard } from './office-admin.guard';

/** The office's suppression list: addresses that bounced for good, which its sends no longer try. */
@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(OfficeAdminGuard)
@Controller('v2/admin/suppressions')
export class AdminSuppressionsController {
  constructor(private readonly suppressions: OfficeSuppressions) {}

  /** Newest first, a page at a time. */
  @Get()
  @ApiZodQuery(suppressionListQuery)
  @ApiZodResponse(200, suppressionPageSchema)
  list(@CurrentAdmin() admin: AdminAct, @Query(new ZodValidationPipe(suppressionListQuery, 'query')) query: z.infer<typeof suppressionListQuery>) {
    return this.suppressions.page(admin.officeId, query);
  }

  /** Takes the address off the list: the office's mail goes to it again. 404: no such suppression in the office. */
  @Delete(':id')
  @HttpCode(204)
  @ApiZodPath(idParams)
  async remove(@CurrentAdmin() admin: AdminAct, @Param(new ZodValidationPipe(idParams, 'path')) params: z.infer<typeof idParams>): Promise<void> {
    await this.suppressions.remove(admin, params.id);
  }
}
