import { useTranslation } from 'react-i18next';
import type { Usage } from '../api/types';
import { formatSize } from '../shared/format';

const WARN_AT = 0.9;

/** How much of the quota the user's mail takes; from 90 % on, a warning says what to do. */
export function UsageMeter({ usage }: { usage: Usage }) {
  const { t } = useTranslation();
  const share = usage.quotaBytes > 0 ? usage.usedBytes / usage.quotaBytes : 1;
  const percent = Math.min(100, Math.round(share * 100));
  const full = share >= WARN_AT;
  return (
    <section className={`usage${full ? ' usage-full' : ''}`} aria-label={t('usage.label')}>
      <meter
        min={0}
        max={usage.quotaBytes}
        value={Math.min(usage.usedBytes, usage.quotaBytes)}
        high={usage.quotaBytes * WARN_AT}
        aria-label={t('usage.meter')}
      />
      <p className="usage-text">{t('usage.used', { used: formatSize(usage.usedBytes), quota: formatSize(usage.quotaBytes), percent })}</p>
      {full && (
        <p className="usage-warning" role="alert">
          {share >= 1 ? t('usage.full') : t('usage.almostFull')} {t('usage.advice')}
        </p>
      )}
    </section>
  );
}
