import type { Me, Session } from '../api/types';
import { Loading } from '../shared/LoadStates';
import { PasswordChangeForm } from '../session/PasswordChangeForm';
import { SessionsSettings } from './SessionsSettings';
import { TwoFactorSettings } from './TwoFactorSettings';

interface Props {
  me: Me | null;
  /** After a change the profile shows (two-factor on or off). */
  onChanged(): Promise<void>;
  onSession(session: Session): void;
  onSessionsEnded(): void;
}

/** The user's own settings: password, two-factor sign-in, sessions. */
export function Settings({ me, onChanged, onSession, onSessionsEnded }: Props) {
  return (
    <main className="page" aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      {me ? (
        <>
          <p className="muted">
            Signed in as <strong>{me.email}</strong>
            {me.addresses.length > 1 && <> (also receives mail for {me.addresses.slice(1).join(', ')})</>}
          </p>
          <section className="card" aria-labelledby="password-title">
            <h3 id="password-title">Change password</h3>
            <p className="muted">Every other session ends; this one goes on.</p>
            <PasswordChangeForm currentLabel="Current password" submitLabel="Change password" onChanged={onSession} />
          </section>
          <TwoFactorSettings enabled={me.totpEnabled} onChanged={onChanged} />
          <SessionsSettings onSessionsEnded={onSessionsEnded} />
        </>
      ) : (
        <Loading />
      )}
    </main>
  );
}
