import { Body, Controller, Get, Header, HttpCode, Post, Put, UnsupportedMediaTypeException } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiNoContentResponse, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthenticatedUser } from '@letterbox/auth';
import { z } from 'zod';
import { ApiZodBody, ApiZodResponse, ZodValidationPipe } from '@letterbox/http';
import { appliedRulesSchema, ApplySieveScript, SaveSieveScript, SieveScripts, type AppliedRules } from '@letterbox/mail';

const applyBody = z
  .object({
    /** The id of the folder whose mail the rules run over. */
    folder: z.int().positive().max(2_147_483_647),
  })
  .strict();

/**
 * The signed-in user's rules as one Sieve script (RFC 5228), as Roundcube's managesieve writes
 * them: the text as it was put. A script that does not parse, uses what Letterbox does not run, or
 * files into a folder the user does not have is a 422 naming its line and column.
 */
@ApiTags('rules')
@ApiBearerAuth()
@Controller('v2/sieve')
export class SieveController {
  constructor(
    private readonly scripts: SieveScripts,
    private readonly saveScript: SaveSieveScript,
    private readonly applyScript: ApplySieveScript,
  ) {}

  @Get()
  @Header('content-type', 'text/plain; charset=utf-8')
  @Header('cache-control', 'private, no-cache')
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'the script, empty when the user has no rules', schema: { type: 'string' } })
  get(@CurrentUser() user: AuthenticatedUser): Promise<string> {
    return this.scripts.get(user.userId);
  }

  @Put()
  @HttpCode(204)
  @ApiConsumes('text/plain')
  @ApiBody({ description: 'the whole script (at most 64 KB); an empty one removes the rules', schema: { type: 'string' } })
  @ApiNoContentResponse({ description: 'the script replaces the rules' })
  async put(@CurrentUser() user: AuthenticatedUser, @Body() script: unknown): Promise<void> {
    if (typeof script !== 'string') throw new UnsupportedMediaTypeException('body: a script is sent as text/plain');
    await this.saveScript.save(user.userId, script);
  }

  /**
   * Runs the rules over the mail already in a folder (its newest 5000): fileinto moves, flags are set, discard
   * moves to the Trash; redirect, reject and vacation do nothing to old mail.
   */
  @Post('apply')
  @HttpCode(200)
  @ApiZodBody(applyBody)
  @ApiZodResponse(200, appliedRulesSchema)
  apply(@CurrentUser() user: AuthenticatedUser, @Body(new ZodValidationPipe(applyBody, 'body')) body: z.infer<typeof applyBody>): Promise<AppliedRules> {
    return this.applyScript.apply(user.userId, body.folder);
  }
}
