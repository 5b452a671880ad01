import { DEMO_DOMAIN, DEMO_PASSWORD } from '@letterbox/demo-data';

/** The accounts the scenarios sign in as; all use the demo office's password. */
export const BENCH_PASSWORD = DEMO_PASSWORD;
export const ALICE_EMAIL = `alice@${DEMO_DOMAIN}`;
export const BULK_USER_EMAIL = `bulk@${DEMO_DOMAIN}`;

/** The mail count of the original list load test's mailbox owner. */
export const BULK_MAIL_COUNT = 1_000_000;

/**
 * Users of the send scenarios, each its own provider account (the mock SMTP limits each
 * MAIL FROM to 5 mails/s), so many senders can be loaded at once.
 */
export const SENDER_COUNT = 40;
export const senderEmail = (index: number) => `sender-${index}@${DEMO_DOMAIN}`;
/** sender-1 to sender-<count>. */
export const senderEmails = (count = SENDER_COUNT) => Array.from({ length: count }, (_, index) => senderEmail(index + 1));
