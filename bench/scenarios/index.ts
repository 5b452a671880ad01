import { attachment16mScenario } from './attachment-16m';
import { bulkReadScenario } from './bulk-read';
import { contactsScenario } from './contacts';
import { deliveryCrashScenario } from './delivery-crash';
import { deliveryE2eScenario } from './delivery-e2e';
import { detail22mScenario } from './detail-22m';
import { detail4kScenario } from './detail-4k';
import { detail712kScenario } from './detail-712k';
import { imapScenario } from './imap';
import { ingestBurstScenario } from './ingest-burst';
import { ingestSustainedScenario } from './ingest-sustained';
import { listScenario } from './list';
import { mailboxesFullScenario, mailboxesScenario } from './mailboxes';
import { notifyScenario } from './notify';
import { raw22mScenario } from './raw-22m';
import { readS3Scenario } from './read-s3';
import { receiptConfirmScenario } from './receipt-confirm';
import type { Scenario } from './scenario';
import { SEARCH_SCENARIOS } from './search';
import { sendAtTargetRateScenario, sendScenario, sendSynchronousScenario } from './send';
import { threadsScenario } from './threads';
import { userCreateScenario } from './user-create';

/** The read API's scenarios, in the order `read` (and `all`) runs them. */
export const READ_SCENARIOS: readonly Scenario[] = [
  mailboxesScenario,
  mailboxesFullScenario,
  listScenario,
  detail4kScenario,
  detail712kScenario,
  detail22mScenario,
  receiptConfirmScenario,
  raw22mScenario,
  attachment16mScenario,
];

/** The everyday webmail's scenarios (issue 10), in the order `webmail` runs them: the bulk change last, as it moves mail. */
export const WEBMAIL_SCENARIOS: readonly Scenario[] = [threadsScenario, ...SEARCH_SCENARIOS, contactsScenario, bulkReadScenario];

/** The send pipeline's scenarios, in the order `sending` (and `all`) runs them: the load first, as it empties the queue after itself. */
export const SENDING_SCENARIOS: readonly Scenario[] = [
  sendScenario,
  sendAtTargetRateScenario,
  sendSynchronousScenario,
  deliveryE2eScenario,
  deliveryCrashScenario,
];

/** The ingest pipeline's scenarios, in the order `ingest` (and `all`) runs them; each starts the apps it measures. */
export const INGEST_SCENARIOS: readonly Scenario[] = [ingestBurstScenario, ingestSustainedScenario];

/** Every scenario, in the order `all` runs them. */
export const SCENARIOS: readonly Scenario[] = [
  ...READ_SCENARIOS,
  ...WEBMAIL_SCENARIOS,
  ...SENDING_SCENARIOS,
  ...INGEST_SCENARIOS,
  notifyScenario,
  readS3Scenario,
  userCreateScenario,
  imapScenario,
];

/** Names that run several scenarios. */
export const SCENARIO_GROUPS: Record<string, readonly Scenario[]> = {
  all: SCENARIOS,
  read: READ_SCENARIOS,
  webmail: WEBMAIL_SCENARIOS,
  search: SEARCH_SCENARIOS,
  sending: SENDING_SCENARIOS,
  ingest: INGEST_SCENARIOS,
  admin: [userCreateScenario],
};
