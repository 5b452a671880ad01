import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthenticatedUser } from '@letterbox/auth';
import { ApiZodBody, ApiZodResponse, ZodValidationPipe } from '@letterbox/http';
import { vacationRequestSchema, vacationSchema, VacationSettings, type Vacation } from '@letterbox/sending';

/**
 * The signed-in user's out-of-office reply: sent to outside senders once a week each while it
 * is on (between `from` and `until` when given), never to lists, automatic mail or machines.
 */
@ApiTags('settings')
@ApiBearerAuth()
@Controller('v2/settings/vacation')
export class VacationController {
  constructor(private readonly settings: VacationSettings) {}

  @Get()
  @ApiZodResponse(200, vacationSchema)
  get(@CurrentUser() user: AuthenticatedUser): Promise<Vacation> {
    return this.settings.get(user.userId);
  }

  /** Replaces the reply; its HTML is sanitized as mail is. */
  @Put()
  @ApiZodBody(vacationRequestSchema)
  @ApiZodResponse(200, vacationSchema)
  put(@CurrentUser() user: AuthenticatedUser, @Body(new ZodValidationPipe(vacationRequestSchema, 'body')) body: Vacation): Promise<Vacation> {
    return this.settings.put(user.userId, body);
  }
}
