import type { Messaging } from 'firebase-admin/messaging';
import type { PushNotification } from '@letterbox/push';

/**
 * Push notifications the naive way, for bench/ to measure PushSender against: one
 * `messaging.send` per token, each awaited before the next, so every token waits out
 * FCM's latency in turn. It goes through the same Firebase app and connections as the
 * batched path, and sorts no failures, which favours it.
 */
export async function sendOneByOne(messaging: Messaging, tokens: string[], notification: PushNotification): Promise<{ delivered: number; failed: number }> {
  let delivered = 0;
  let failed = 0;
  for (const token of tokens) {
    try {
      await messaging.send({ token, notification: { title: notification.title, body: notification.body }, data: notification.data });
      delivered += 1;
    } catch {
      failed += 1;
    }
  }
  return { delivered, failed };
}
