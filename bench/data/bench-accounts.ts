import { DEMO_DOMAIN, DEMO_PASSWORD } from '@letterbox/demo-data';

/** The accounts the scenarios sign in as; all use the demo office's password. */
export const BENCH_PASSWORD = DEMO_PASSWORD;
export const ALICE_EMAIL = `alice@${DEMO_DOMAIN}`;
export const BULK_USER_EMAIL = `bulk@${DEMO_DOMAIN}`;

/** The mail count of the original list load test's mailbox owner. */
export const BULK_MAIL_COUNT = 1_000_000;
