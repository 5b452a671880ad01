import { z } from 'zod';

const recipient = z.email({ message: 'must be an e-mail address' });

export const inboundQuery = z
  .object({
    /** The envelope's recipients, repeated: `?to=a@x&to=b@x`. */
    to: z
      .union([recipient, z.array(recipient).min(1).max(100)])
      .optional()
      .transform((to) => (to === undefined ? undefined : [to].flat())),
    /** The address of the mail server the gateway took the message from: its SPF is checked against it. */
    ip: z.union([z.ipv4(), z.ipv6()], { message: 'must be an IPv4 or IPv6 address' }).optional(),
    /** The name that mail server gave in EHLO/HELO. */
    helo: z.string().min(1).max(255).optional(),
    /** The envelope sender it gave (MAIL FROM); empty for a bounce. */
    sender: z.union([z.literal(''), recipient]).optional(),
  })
  .strict();

export type InboundQuery = z.infer<typeof inboundQuery>;
