import { z } from 'zod';
import { DEVICE_PLATFORMS } from '@letterbox/push';

/**
 * An FCM registration token: URL-safe base64 and colons, about 150 to 250 characters.
 * The bound keeps a token inside what PostgreSQL's unique index on it can hold.
 */
export const deviceToken = z
  .string({ message: 'must be an FCM registration token' })
  .max(1024, 'must be at most 1024 characters')
  .regex(/^[A-Za-z0-9_:.~-]+$/, 'must be an FCM registration token: letters, digits, and _ : . ~ - only');

export const deviceRegistration = z
  .object({
    token: deviceToken,
    platform: z.enum(DEVICE_PLATFORMS, { message: `must be one of ${DEVICE_PLATFORMS.join(', ')}` }).optional(),
    /** Made once by the app installation and kept by it alone: the proof that moves its token to another user. */
    installationSecret: z
      .string()
      .regex(/^[A-Za-z0-9_-]{32,256}$/, 'must be 32 to 256 letters, digits, _ or - (a random secret the installation keeps)')
      .optional(),
  })
  .strict();

export type DeviceRegistrationBody = z.infer<typeof deviceRegistration>;

export const deviceTokenParams = z.object({ token: deviceToken });

export type DeviceTokenParams = z.infer<typeof deviceTokenParams>;
