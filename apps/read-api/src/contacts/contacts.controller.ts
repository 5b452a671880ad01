import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { CurrentUser, type AuthenticatedUser } from '@letterbox/auth';
import { ApiZodQuery, ApiZodResponse, integerParam, ZodValidationPipe } from '@letterbox/http';
import { contactListSchema, ContactQueries } from '@letterbox/mail';

const contactsQuery = z
  .object({
    q: z
      .string()
      .trim()
      .max(320, 'must be at most 320 characters')
      .refine((value) => !value.includes('\u0000'), 'must not contain NUL characters')
      .default(''),
    limit: integerParam(1, 50).default(10),
  })
  .strict();

@ApiTags('contacts')
@ApiBearerAuth()
@Controller('v2/contacts')
export class ContactsController {
  constructor(private readonly contacts: ContactQueries) {}

  /** People to suggest as recipients for what was typed (`q`, a start of an address or of a name's word), best first. */
  @Get()
  @ApiZodQuery(contactsQuery)
  @ApiZodResponse(200, contactListSchema)
  async suggest(@CurrentUser() user: AuthenticatedUser, @Query(new ZodValidationPipe(contactsQuery, 'query')) query: z.infer<typeof contactsQuery>) {
    return { items: await this.contacts.suggest(user.userId, query.q, query.limit) };
  }
}
