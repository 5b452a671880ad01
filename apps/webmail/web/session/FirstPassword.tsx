import { Trans, useTranslation } from 'react-i18next';
import type { Session } from '../api/types';
import { PasswordChangeForm } from './PasswordChangeForm';

interface Props {
  email: string;
  onChanged(session: Session): void;
  onSignOut(): void;
}

/** Before anything else, a user whose password an administrator set chooses their own (the API refuses the rest until then). */
export function FirstPassword({ email, onChanged, onSignOut }: Props) {
  const { t } = useTranslation();
  return (
    <main className="sign-in">
      <section className="sign-in-card" aria-labelledby="first-password-title">
        <h1 id="first-password-title">{t('firstPassword.title')}</h1>
        <p>
          <Trans i18nKey="firstPassword.explanation" values={{ email }} components={{ strong: <strong /> }} />
        </p>
        <PasswordChangeForm currentLabel={t('firstPassword.given')} submitLabel={t('firstPassword.submit')} onChanged={onChanged} />
        <button type="button" className="link" onClick={onSignOut}>
          {t('common.signOut')}
        </button>
      </section>
    </main>
  );
}
