import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { Public } from '@letterbox/auth';
import { ApiZodPath, integerParam, ZodValidationPipe } from '@letterbox/http';
import { ReadReceipts } from '@letterbox/mail';

/** A transparent 1x1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const receiptParams = z.object({
  officeNo: integerParam(1, 2_147_483_647),
  certKey: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'is not a receipt key'),
  email: z.email().max(320),
});

@ApiTags('read receipts')
@Controller('v2/office/:officeNo/receipt-confirm/:certKey/email/:email')
export class ReceiptConfirmController {
  constructor(private readonly receipts: ReadReceipts) {}

  /** Public: the image a recipient's mail client loads. Known or not, the answer is the same. */
  @Public()
  @Get()
  @ApiZodPath(receiptParams)
  async confirm(@Param(new ZodValidationPipe(receiptParams, 'path')) params: z.infer<typeof receiptParams>, @Res() reply: FastifyReply) {
    await this.receipts.confirm(params.officeNo, params.certKey, params.email);
    return reply
      .header('content-type', 'image/gif')
      .header('cache-control', 'no-store, no-cache, must-revalidate, private')
      .header('content-length', PIXEL.length)
      .send(PIXEL);
  }
}
