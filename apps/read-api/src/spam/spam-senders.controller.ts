import { Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { CurrentUser, type AuthenticatedUser } from '@letterbox/auth';
import { ApiZodBody, ApiZodPath, ApiZodResponse, ZodValidationPipe } from '@letterbox/http';
import { senderAddressSchema, senderRuleListSchema, SenderRules, type SenderRule } from '@letterbox/mail';

const RULE_OF_LIST: Record<'blocked' | 'allowed', SenderRule> = { blocked: 'block', allowed: 'allow' };

const listParams = z.object({ list: z.enum(['blocked', 'allowed'], { message: 'must be blocked or allowed' }) });
const entryParams = listParams.extend({ address: senderAddressSchema.shape.address });

/**
 * The signed-in user's blocked senders ("Block sender": their mail goes to Spam whatever its
 * score) and allowed ones ("Never spam": never put in Spam by its score). An address is on one
 * list at most: putting it on one takes it off the other.
 */
@ApiTags('spam')
@ApiBearerAuth()
@Controller('v2/spam')
export class SpamSendersController {
  constructor(private readonly rules: SenderRules) {}

  @Get(':list')
  @ApiZodPath(listParams)
  @ApiZodResponse(200, senderRuleListSchema)
  list(@CurrentUser() user: AuthenticatedUser, @Param(new ZodValidationPipe(listParams, 'path')) params: z.infer<typeof listParams>) {
    return this.rules.list(user.userId, RULE_OF_LIST[params.list]);
  }

  @Post(':list')
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiZodPath(listParams)
  @ApiZodBody(senderAddressSchema)
  async add(
    @CurrentUser() user: AuthenticatedUser,
    @Param(new ZodValidationPipe(listParams, 'path')) params: z.infer<typeof listParams>,
    @Body(new ZodValidationPipe(senderAddressSchema, 'body')) body: z.infer<typeof senderAddressSchema>,
  ): Promise<void> {
    await this.rules.put(user.userId, body.address, RULE_OF_LIST[params.list]);
  }

  /** 404: the address is not on that list. */
  @Delete(':list/:address')
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiZodPath(entryParams)
  async remove(@CurrentUser() user: AuthenticatedUser, @Param(new ZodValidationPipe(entryParams, 'path')) params: z.infer<typeof entryParams>): Promise<void> {
    if (!(await this.rules.remove(user.userId, params.address, RULE_OF_LIST[params.list])))
      throw new NotFoundException(`${params.address} is not on your ${params.list} senders`);
  }
}
