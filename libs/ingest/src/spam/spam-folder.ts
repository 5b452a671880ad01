import type { SpamVerdict } from '@letterbox/mail';

/** rspamd's actions that put a message in Spam: `add header` and above (`reject`, when SPAM_REJECT did not refuse it). */
const SPAM_ACTIONS = new Set(['add header', 'rewrite subject', 'reject']);

export function isSpamByScore(verdict: SpamVerdict): boolean {
  return SPAM_ACTIONS.has(verdict.action);
}
