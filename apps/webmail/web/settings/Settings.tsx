import { Trans, useTranslation } from 'react-i18next';
import type { Mailbox, Me, Session, User } from '../api/types';
import { Loading } from '../shared/LoadStates';
import { PasswordChangeForm } from '../session/PasswordChangeForm';
import { AppPasswordsSettings } from './AppPasswordsSettings';
import { IdentitiesSettings } from './IdentitiesSettings';
import { LanguageSettings } from './LanguageSettings';
import { RulesSettings } from './RulesSettings';
import { SessionsSettings } from './SessionsSettings';
import { TwoFactorSettings } from './TwoFactorSettings';
import { VacationSettings } from './VacationSettings';

interface Props {
  user: User;
  me: Me | null;
  /** The folders rules can file into; null while they load. */
  mailboxes: Mailbox[] | null;
  /** After a change the profile shows (two-factor on or off). */
  onChanged(): Promise<void>;
  onSession(session: Session): void;
  onSessionsEnded(): void;
}

/** The user's own settings: language, password, two-factor sign-in, app passwords, sessions, addresses and signatures, the out-of-office reply, rules. */
export function Settings({ user, me, mailboxes, onChanged, onSession, onSessionsEnded }: Props) {
  const { t } = useTranslation();
  return (
    <main className="page" aria-labelledby="settings-title" tabIndex={-1}>
      <h2 id="settings-title">{t('settings.title')}</h2>
      <p className="muted">
        <Trans i18nKey="settings.signedInAs" values={{ email: user.email }} components={{ strong: <strong /> }} />
      </p>
      <LanguageSettings onChanged={onChanged} />
      <section className="card" aria-labelledby="password-title">
        <h3 id="password-title">{t('settings.changePassword')}</h3>
        <p className="muted">{t('settings.passwordHint')}</p>
        <PasswordChangeForm currentLabel={t('settings.currentPassword')} submitLabel={t('settings.changePassword')} onChanged={onSession} />
      </section>
      {me ? <TwoFactorSettings enabled={me.totpEnabled} onChanged={onChanged} /> : <Loading />}
      <AppPasswordsSettings />
      <SessionsSettings onSessionsEnded={onSessionsEnded} />
      <IdentitiesSettings />
      <VacationSettings />
      {mailboxes ? <RulesSettings mailboxes={mailboxes} /> : <Loading />}
    </main>
  );
}
