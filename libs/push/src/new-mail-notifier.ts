import { loggerFor, pushTotal } from '@letterbox/observability';
import { JOB_DONE, type JobAttempt, type JobOutcome, type JobPayloads } from '@letterbox/queue';
import type { DeviceRegistry } from './device-registry';
import { newMailNotification } from './new-mail-notification';
import type { PushSender, RefusedToken } from './push-sender';

type NotifyNewMail = JobPayloads['notify-new-mail'];

const logger = loggerFor('push');

/**
 * The `notify-new-mail` job: announces a mail on each of its owner's devices. Dead tokens
 * are removed at once; tokens that failed for now are kept in the job for its next attempt,
 * so a retry (after the job's backoff) never notifies a device twice; a permanent refusal is
 * logged, never retried.
 */
export class NewMailNotifier {
  constructor(
    private readonly devices: DeviceRegistry,
    private readonly sender: PushSender,
  ) {}

  async notify(payload: NotifyNewMail, attempt: JobAttempt<NotifyNewMail>): Promise<JobOutcome<NotifyNewMail>> {
    const tokens = await this.devices.tokensOf(payload.userId, payload.retryTokens);
    if (tokens.length === 0) return JOB_DONE;
    const report = await this.sender.send(tokens, newMailNotification(payload));
    const pruned = await this.devices.prune(report.dead);
    pushTotal.inc({ outcome: 'delivered' }, report.delivered);
    pushTotal.inc({ outcome: 'pruned' }, pruned);
    pushTotal.inc({ outcome: 'failed' }, report.permanent.length);
    logger.info(
      { mailId: payload.mailId, userId: payload.userId, delivered: report.delivered, pruned, failedForNow: report.transient.length },
      `mail ${payload.mailId}: pushed to ${report.delivered} device(s)`,
    );
    if (report.permanent.length > 0)
      logger.error(
        { mailId: payload.mailId },
        `mail ${payload.mailId}: FCM refused ${report.permanent.length} device(s) for good: ${summary(report.permanent)}`,
      );
    if (report.transient.length === 0) return JOB_DONE;
    if (attempt.final) {
      pushTotal.inc({ outcome: 'failed' }, report.transient.length);
      logger.error(
        { mailId: payload.mailId },
        `mail ${payload.mailId}: giving up on ${report.transient.length} device(s) after ${attempt.number} attempts: ${summary(report.transient)}`,
      );
      return JOB_DONE;
    }
    return {
      outcome: 'retry',
      reason: `${report.transient.length} of ${tokens.length} device(s) failed for now (${summary(report.transient)}); retrying only those`,
      payload: { ...payload, retryTokens: report.transient.map((failed) => failed.token) },
    };
  }
}

/** How many tokens failed with each code, e.g. `messaging/server-unavailable × 3`. */
function summary(failures: RefusedToken[]): string {
  const byCode = new Map<string, number>();
  for (const failure of failures) byCode.set(failure.code, (byCode.get(failure.code) ?? 0) + 1);
  return [...byCode].map(([code, count]) => `${code} × ${count}`).join(', ');
}
