import { z } from 'zod';

/**
 * A whole number in a URL, written only in plain decimal: `1e0`, `0x10`, `+1` and `1.0`
 * are refused, so one resource has one URL.
 */
export function integerParam(min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z
    .string({ message })
    .regex(/^(0|[1-9]\d{0,15})$/, message)
    .transform(Number)
    .refine((value) => value >= min && value <= max, message);
}
