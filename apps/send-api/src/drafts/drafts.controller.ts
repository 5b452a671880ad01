import { Controller, Delete, Get, Headers, HttpCode, HttpException, Inject, Param, Post, Put, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiHeader, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CurrentUser, type AuthenticatedUser } from '@letterbox/auth';
import { ApiZodBody, ApiZodPath, ApiZodResponse, ZodValidationPipe } from '@letterbox/http';
import { Drafts, DraftVersionConflictError, draftViewSchema, submittedSendSchema, type DraftView } from '@letterbox/sending';
import { BlobStore } from '@letterbox/storage';
import { SEND_API_CONFIG, type SendApiConfig } from '../send-api.config';
import { readSendForm } from '../sends/read-send-form';
import { draftCreateBody, draftIdParams, draftSendBody, draftUpdateBody, ifMatchHeader } from './draft-request.schema';

type DraftIdParams = z.infer<typeof draftIdParams>;

/**
 * Drafts on the server: made, saved, read, discarded and sent. Every answer carries the
 * draft's version as its ETag; a save or send names the version it started from
 * (If-Match, or `version` in the body): a stale If-Match is a 412, a stale body version a 409.
 */
@ApiTags('drafts')
@ApiBearerAuth()
@Controller('v2/drafts')
export class DraftsController {
  private readonly validateIfMatch = new ZodValidationPipe(z.object({ 'if-match': ifMatchHeader }), 'header');

  constructor(
    @Inject(SEND_API_CONFIG) private readonly config: SendApiConfig,
    private readonly blobs: BlobStore,
    private readonly drafts: Drafts,
  ) {}

  /** JSON, or multipart/form-data with files in `attachments`; `original` and `mode` make a reply or forward. */
  @Post()
  @HttpCode(201)
  @ApiZodResponse(201, draftViewSchema)
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiZodBody(draftCreateBody)
  async create(@CurrentUser() user: AuthenticatedUser, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const form = await readSendForm(request, this.blobs, this.config.SEND_MAX_ATTACHMENT_BYTES);
    const { original, mode, ...fields } = new ZodValidationPipe(draftCreateBody, 'body').transform(form.fields) as z.infer<typeof draftCreateBody>;
    const draft = await this.drafts.create(user, {
      ...fields,
      newAttachments: form.attachments,
      original: original === undefined ? undefined : { mailId: original, mode: mode ?? 'reply' },
    });
    reply.header('location', `/v2/drafts/${draft.id}`);
    return tagged(reply, draft);
  }

  @Get(':id')
  @ApiZodResponse(200, draftViewSchema)
  @ApiZodPath(draftIdParams)
  async read(
    @CurrentUser() user: AuthenticatedUser,
    @Param(new ZodValidationPipe(draftIdParams, 'path')) params: DraftIdParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return tagged(reply, await this.drafts.get(user.userId, params.id));
  }

  /** Autosave: the fields given replace the draft's, new files are added. */
  @Put(':id')
  @ApiZodResponse(200, draftViewSchema)
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiZodBody(draftUpdateBody)
  @ApiHeader({ name: 'If-Match', required: false, description: 'The ETag the draft was read with; or give `version` in the body.' })
  @ApiZodPath(draftIdParams)
  async save(
    @CurrentUser() user: AuthenticatedUser,
    @Param(new ZodValidationPipe(draftIdParams, 'path')) params: DraftIdParams,
    @Headers('if-match') ifMatch: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const form = await readSendForm(request, this.blobs, this.config.SEND_MAX_ATTACHMENT_BYTES);
    const { version, ...fields } = new ZodValidationPipe(draftUpdateBody, 'body').transform(form.fields) as z.infer<typeof draftUpdateBody>;
    const expected = this.expectedVersion(ifMatch, version);
    const changes = { ...fields, newAttachments: form.attachments };
    const draft = await this.drafts.update(user, params.id, expected.version as number, changes).catch(expected.onConflict);
    return tagged(reply, draft);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiZodPath(draftIdParams)
  async discard(@CurrentUser() user: AuthenticatedUser, @Param(new ZodValidationPipe(draftIdParams, 'path')) params: DraftIdParams) {
    await this.drafts.remove(user.userId, params.id);
  }

  /** Sends the draft as saved and takes it out of Drafts; the answer is the send, as POST /v2/mails/send gives it. */
  @Post(':id/send')
  @HttpCode(202)
  @ApiZodResponse(202, submittedSendSchema)
  @ApiZodBody(draftSendBody)
  @ApiHeader({
    name: 'If-Match',
    required: false,
    description: 'The ETag the draft was read with; without it (and without `version`), the draft is sent as it is.',
  })
  @ApiZodPath(draftIdParams)
  async send(
    @CurrentUser() user: AuthenticatedUser,
    @Param(new ZodValidationPipe(draftIdParams, 'path')) params: DraftIdParams,
    @Headers('if-match') ifMatch: string | undefined,
    @Req() request: FastifyRequest,
  ) {
    const { version, sendAt } = new ZodValidationPipe(draftSendBody, 'body').transform(request.body ?? {}) as z.infer<typeof draftSendBody>;
    const expected = this.expectedVersion(ifMatch, version, false);
    const send = await this.drafts.send(user, params.id, expected.version, sendAt).catch(expected.onConflict);
    return { ...send, statusUrl: `/v2/mails/send/${send.id}` };
  }

  /**
   * The version a request names: a conflict on an If-Match is a 412, on a body version a
   * 409 (the domain error's own answer). A save must name one (428); a send may not, and
   * then sends the draft as it is.
   */
  private expectedVersion(ifMatch: string | undefined, bodyVersion: number | undefined, required = true) {
    const fromHeader = this.validateIfMatch.transform({ 'if-match': ifMatch })['if-match'];
    if (fromHeader !== undefined) return { version: fromHeader, onConflict: preconditionFailed };
    if (bodyVersion !== undefined || !required) return { version: bodyVersion, onConflict: rethrow };
    throw new HttpException(
      { detail: 'header.if-match: give the ETag the draft was read with, or version in the body', errors: [{ field: 'header.if-match', message: 'required' }] },
      428,
    );
  }
}

function tagged(reply: FastifyReply, draft: DraftView): DraftView {
  reply.header('etag', `"${draft.version}"`);
  return draft;
}

function rethrow(error: unknown): never {
  throw error;
}

function preconditionFailed(error: unknown): never {
  if (error instanceof DraftVersionConflictError) throw new HttpException(error.message, 412);
  throw error;
}
