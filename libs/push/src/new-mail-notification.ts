import type { JobPayloads } from '@letterbox/queue';
import type { PushNotification } from './push-sender';

/**
 * Bounds that keep a notification well inside FCM's 4 KB payload whatever the mail: past
 * that limit FCM refuses the message for every device, and no retry would change it.
 */
const MAX_TITLE = 120;
const MAX_BODY = 240;

/** By code point, so an emoji is never cut in half. */
function clip(text: string, max: number): string {
  const characters = [...text];
  return characters.length <= max ? text : `${characters.slice(0, max - 1).join('')}…`;
}

/** A new mail as a notification: its sender as the title, its subject as the body. */
export function newMailNotification({ mailId, from, subject }: JobPayloads['notify-new-mail']): PushNotification {
  return { title: clip(from, MAX_TITLE), body: clip(subject, MAX_BODY), data: { mailId: String(mailId), type: 'new-mail' }, collapseId: `mail-${mailId}` };
}
