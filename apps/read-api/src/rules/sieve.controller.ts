import { Body, Controller, Get, Header, HttpCode, Put, UnsupportedMediaTypeException } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiNoContentResponse, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthenticatedUser } from '@letterbox/auth';
import { SaveSieveScript, SieveScripts } from '@letterbox/mail';

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
}
