import type { MailEvent } from './mail-events';

/**
 * A message on the live channel is `<userId> <eventId> <event JSON>`: the user id comes
 * first so a process can skip the events of users it has no stream open for without
 * parsing their JSON. The publish script writes it; this reads it.
 */
export function userIdOfLiveMessage(message: string): number {
  return Number(message.slice(0, message.indexOf(' ')));
}

export function parseLiveMessage(message: string): { userId: number; id: string; event: MailEvent } {
  const first = message.indexOf(' ');
  const second = message.indexOf(' ', first + 1);
  return {
    userId: Number(message.slice(0, first)),
    id: message.slice(first + 1, second),
    event: JSON.parse(message.slice(second + 1)) as MailEvent,
  };
}
