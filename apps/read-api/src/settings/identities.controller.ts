import { Body, Controller, Get, Param, Patch } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { identityChangesSchema, identityListSchema, identitySchema, IdentitySettings, type Identity, type IdentityChanges } from '@letterbox/accounts';
import { CurrentUser, type AuthenticatedUser } from '@letterbox/auth';
import { ApiZodBody, ApiZodPath, ApiZodResponse, ZodValidationPipe } from '@letterbox/http';

const identityParams = z.object({ address: z.email('must be an email address').max(320, 'must be at most 320 characters') });

/**
 * The signed-in user's identities: their primary address and each alias, with the name mail from it
 * shows and its signature, which the webmail's compose puts above the quote.
 */
@ApiTags('settings')
@ApiBearerAuth()
@Controller('v2/identities')
export class IdentitiesController {
  constructor(private readonly identities: IdentitySettings) {}

  @Get()
  @ApiZodResponse(200, identityListSchema)
  async list(@CurrentUser() user: AuthenticatedUser): Promise<{ items: Identity[] }> {
    return { items: await this.identities.list(user.userId) };
  }

  /** Changes what is given (null: back to the user's name, no signature); the HTML signature is sanitized as mail is. */
  @Patch(':address')
  @ApiZodPath(identityParams)
  @ApiZodBody(identityChangesSchema)
  @ApiZodResponse(200, identitySchema)
  change(
    @CurrentUser() user: AuthenticatedUser,
    @Param(new ZodValidationPipe(identityParams, 'path')) params: z.infer<typeof identityParams>,
    @Body(new ZodValidationPipe(identityChangesSchema, 'body')) body: IdentityChanges,
  ): Promise<Identity> {
    return this.identities.change(user.userId, params.address, body);
  }
}
