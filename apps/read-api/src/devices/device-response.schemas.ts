import { DEVICE_PLATFORMS } from '@letterbox/push';

/** JSON Schemas of what the device routes answer, for Fastify's serializer and OpenAPI. */
export const deviceResponse = {
  type: 'object',
  properties: {
    token: { type: 'string' },
    platform: { type: 'string', enum: [...DEVICE_PLATFORMS] },
    createdAt: { type: 'string', format: 'date-time' },
    lastSeenAt: { type: 'string', format: 'date-time' },
  },
  required: ['token', 'platform', 'createdAt', 'lastSeenAt'],
} as const;

export const deviceListResponse = {
  type: 'object',
  properties: { items: { type: 'array', items: deviceResponse } },
  required: ['items'],
} as const;
