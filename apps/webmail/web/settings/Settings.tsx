import type { Mailbox, Me, Session, User } from '../api/types';
import { Loading } from '../shared/LoadStates';
import { PasswordChangeForm } from '../session/PasswordChangeForm';
import { IdentitiesSettings } from './IdentitiesSettings';
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

/** The user's own settings: password, two-factor sign-in, sessions, addresses and signatures, the out-of-office reply, rules. */
export function Settings({ user, me, mailboxes, onChanged, onSession, onSessionsEnded }: Props) {
  return (
    <main className="page" aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <p className="muted">
        Signed in as <strong>{user.email}</strong>
      </p>
      <section className="card" aria-labelledby="password-title">
        <h3 id="password-title">Change password</h3>
        <p className="muted">Every other session ends; this one goes on.</p>
        <PasswordChangeForm currentLabel="Current password" submitLabel="Change password" onChanged={onSession} />
      </section>
      {me ? <TwoFactorSettings enabled={me.totpEnabled} onChanged={onChanged} /> : <Loading />}
      <SessionsSettings onSessionsEnded={onSessionsEnded} />
      <IdentitiesSettings />
      <VacationSettings />
      {mailboxes ? <RulesSettings mailboxes={mailboxes} /> : <Loading />}
    </main>
  );
}
