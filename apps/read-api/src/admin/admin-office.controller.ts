import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import {
  DomainDkimKeys,
  dkimKeySchema,
  OfficeDomains,
  officeDomainListSchema,
  officeDomainSchema,
  OfficeSettings,
  officeSettingsSchema,
  type AdminAct,
} from '@letterbox/admin';
import { auditPageSchema, AuditTrail } from '@letterbox/audit';
import { ApiZodBody, ApiZodPath, ApiZodQuery, ApiZodResponse, ZodValidationPipe } from '@letterbox/http';
import { auditQuery, dkimKeyParams, domainBody, domainParams, officeChangesBody } from './admin-request.schemas';

const newDkimKeysSchema = z.object({ dkim: z.array(dkimKeySchema) }).meta({ id: 'NewDkimKeys' });
import { CurrentAdmin, OfficeAdminGuard } from './office-admin.guard';

/** The office as a whole: its settings, its domains and its audit log. */
@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(OfficeAdminGuard)
@Controller('v2/admin')
export class AdminOfficeController {
  constructor(
    private readonly settings: OfficeSettings,
    private readonly domains: OfficeDomains,
    private readonly dkimKeys: DomainDkimKeys,
    private readonly trail: AuditTrail,
  ) {}

  @Get('office')
  @ApiZodResponse(200, officeSettingsSchema)
  office(@CurrentAdmin() admin: AdminAct) {
    return this.settings.get(admin.officeId);
  }

  /** `requireTotp`: every user of the office must sign in with a second factor. */
  @Patch('office')
  @ApiZodBody(officeChangesBody)
  @ApiZodResponse(200, officeSettingsSchema)
  changeOffice(@CurrentAdmin() admin: AdminAct, @Body(new ZodValidationPipe(officeChangesBody, 'body')) body: z.infer<typeof officeChangesBody>) {
    return this.settings.change(admin, body);
  }

  @Get('domains')
  @ApiZodResponse(200, officeDomainListSchema)
  async listDomains(@CurrentAdmin() admin: AdminAct) {
    return { domains: await this.domains.list(admin.officeId) };
  }

  /** Another domain the office receives mail for. 409: an office has it already. */
  @Post('domains')
  @ApiZodBody(domainBody)
  @ApiZodResponse(201, officeDomainSchema)
  addDomain(@CurrentAdmin() admin: AdminAct, @Body(new ZodValidationPipe(domainBody, 'body')) body: z.infer<typeof domainBody>) {
    return this.domains.add(admin, body.name);
  }

  /**
   * A new RSA-2048 and a new Ed25519 key for the domain, each under a new selector, with the TXT records
   * to publish; they sign from now on, beside the older keys until those are retired. 404: not a domain of the office.
   */
  @Post('domains/:domain/dkim')
  @ApiZodPath(domainParams)
  @ApiZodResponse(201, newDkimKeysSchema)
  async generateDkimKeys(@CurrentAdmin() admin: AdminAct, @Param(new ZodValidationPipe(domainParams, 'path')) params: z.infer<typeof domainParams>) {
    return { dkim: await this.dkimKeys.generate(admin, params.domain) };
  }

  /** Stops signing with the key; its record can be removed once the mail it signed has arrived. 404: no such active key. */
  @Post('domains/:domain/dkim/:selector/retire')
  @HttpCode(200)
  @ApiZodPath(dkimKeyParams)
  @ApiZodResponse(200, dkimKeySchema)
  retireDkimKey(@CurrentAdmin() admin: AdminAct, @Param(new ZodValidationPipe(dkimKeyParams, 'path')) params: z.infer<typeof dkimKeyParams>) {
    return this.dkimKeys.retire(admin, params.domain, params.selector);
  }

  /** Who did what, newest first, a page at a time; filtered by action, actor (an address, or `cli`) and time [since, until). Read-only. */
  @Get('audit')
  @ApiZodQuery(auditQuery)
  @ApiZodResponse(200, auditPageSchema)
  audit(@CurrentAdmin() admin: AdminAct, @Query(new ZodValidationPipe(auditQuery, 'query')) query: z.infer<typeof auditQuery>) {
    return this.trail.page(admin.officeId, query);
  }
}
