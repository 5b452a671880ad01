import { useTranslation } from 'react-i18next';
import type { SpamVerdict } from '../api/types';

/** The rules that weighed, heaviest first, as the score's tooltip lists them. */
const weighed = (verdict: SpamVerdict) =>
  verdict.symbols
    .filter(({ score }) => score !== 0)
    .map(({ name, score }) => `${name} ${score > 0 ? '+' : ''}${score.toFixed(1)}`)
    .join(', ');

/** The spam filter's score in the mail's details, against the score it refuses mail at; its rules on hover. */
export function SpamScore({ verdict }: { verdict: SpamVerdict }) {
  const { t } = useTranslation();
  const rules = weighed(verdict) || verdict.symbols.map(({ name }) => name).join(', ');
  return (
    <>
      <dt>{t('reader.spamScore')}</dt>
      <dd className="spam-score" title={rules}>
        {t('reader.spamScoreValue', { score: verdict.score.toFixed(1), required: verdict.requiredScore.toFixed(0), action: verdict.action })}
      </dd>
    </>
  );
}
