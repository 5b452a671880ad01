import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthenticatedUser } from '@letterbox/auth';
import { MailboxQueries } from '@letterbox/mail';

@ApiTags('mailboxes')
@ApiBearerAuth()
@Controller('v2/mailboxes')
export class MailboxesController {
  constructor(private readonly mailboxes: MailboxQueries) {}

  /** The user's mailboxes with total and unread counts (none shown for a locked one). */
  @Get()
  async list(@CurrentUser() user: AuthenticatedUser) {
    return { items: await this.mailboxes.list(user.userId) };
  }
}
