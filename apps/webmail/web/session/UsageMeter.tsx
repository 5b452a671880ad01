import type { Usage } from '../api/types';
import { formatSize } from '../shared/format';

const WARN_AT = 0.9;

/** How much of the quota the user's mail takes; from 90 % on, a warning says what to do. */
export function UsageMeter({ usage }: { usage: Usage }) {
  const share = usage.quotaBytes > 0 ? usage.usedBytes / usage.quotaBytes : 1;
  const percent = Math.min(100, Math.round(share * 100));
  const full = share >= WARN_AT;
  return (
    <section className={`usage${full ? ' usage-full' : ''}`} aria-label="Storage">
      <meter min={0} max={usage.quotaBytes} value={Math.min(usage.usedBytes, usage.quotaBytes)} high={usage.quotaBytes * WARN_AT} aria-label="Storage used" />
      <p className="usage-text">
        {formatSize(usage.usedBytes)} of {formatSize(usage.quotaBytes)} used ({percent}%)
      </p>
      {full && (
        <p className="usage-warning" role="alert">
          {share >= 1 ? 'Your mailbox is full: new mail is refused.' : 'Your mailbox is almost full.'} Delete mail you no longer need (and empty the Trash).
        </p>
      )}
    </section>
  );
}
