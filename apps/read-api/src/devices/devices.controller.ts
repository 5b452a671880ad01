import { Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, Post, Res } from '@nestjs/common';
import { RouteSchema } from '@nestjs/platform-fastify';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentUser, type AuthenticatedUser } from '@letterbox/auth';
import { ApiZodBody, ApiZodPath, ZodValidationPipe } from '@letterbox/http';
import { DeviceRegistry } from '@letterbox/push';
import { deviceRegistration, deviceTokenParams, type DeviceRegistrationBody, type DeviceTokenParams } from './device-request.schemas';
import { deviceListResponse, deviceResponse } from './device-response.schemas';

/** The devices that get the signed-in user's push notifications, by their FCM registration token. */
@ApiTags('devices')
@ApiBearerAuth()
@Controller('v2/devices')
export class DevicesController {
  constructor(private readonly devices: DeviceRegistry) {}

  @Get()
  @RouteSchema({ response: { 200: deviceListResponse } })
  @ApiOkResponse({ schema: deviceListResponse as object })
  async list(@CurrentUser() user: AuthenticatedUser) {
    return { items: await this.devices.list(user.userId) };
  }

  /**
   * Registers the token for the signed-in user: 201 when the device is new to them, 200 when it was theirs
   * already and is only refreshed. A token another user has moves to them only with the installationSecret
   * it was registered with (the same app installation, signed in as someone else); otherwise 409.
   */
  @Post()
  @ApiZodBody(deviceRegistration)
  @RouteSchema({ response: { '2xx': deviceResponse } })
  @ApiCreatedResponse({ schema: deviceResponse as object })
  @ApiOkResponse({ schema: deviceResponse as object })
  async register(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodValidationPipe(deviceRegistration, 'body')) body: DeviceRegistrationBody,
    @Res() reply: FastifyReply,
  ) {
    const { device, isNew } = await this.devices.register(user.userId, body.token, body.platform, body.installationSecret);
    return reply.status(isNew ? 201 : 200).send(device);
  }

  @Delete(':token')
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiZodPath(deviceTokenParams)
  async remove(@CurrentUser() user: AuthenticatedUser, @Param(new ZodValidationPipe(deviceTokenParams, 'path')) params: DeviceTokenParams) {
    if (!(await this.devices.remove(user.userId, params.token))) throw new NotFoundException('no device of yours has this token');
  }
}
