import { z } from 'zod';

const recipient = z.email({ message: 'must be an e-mail address' });

export const inboundQuery = z
  .object({
    /** The envelope's recipients, repeated: `?to=a@x&to=b@x`. */
    to: z
      .union([recipient, z.array(recipient).min(1).max(100)])
      .optional()
      .transform((to) => (to === undefined ? undefined : [to].flat())),
  })
  .strict();

export type InboundQuery = z.infer<typeof inboundQuery>;
