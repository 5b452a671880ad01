import { attachment16mScenario } from './attachment-16m';
import { detail22mScenario } from './detail-22m';
import { detail4kScenario } from './detail-4k';
import { detail712kScenario } from './detail-712k';
import { listScenario } from './list';
import { mailboxesScenario } from './mailboxes';
import { raw22mScenario } from './raw-22m';
import { receiptConfirmScenario } from './receipt-confirm';
import type { Scenario } from './scenario';

/** Every scenario, in the order `all` runs them. */
export const SCENARIOS: readonly Scenario[] = [
  mailboxesScenario,
  listScenario,
  detail4kScenario,
  detail712kScenario,
  detail22mScenario,
  receiptConfirmScenario,
  raw22mScenario,
  attachment16mScenario,
];
