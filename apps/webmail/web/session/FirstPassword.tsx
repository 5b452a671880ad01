import type { Session } from '../api/types';
import { PasswordChangeForm } from './PasswordChangeForm';

interface Props {
  email: string;
  onChanged(session: Session): void;
  onSignOut(): void;
}

/** Before anything else, a user whose password an administrator set chooses their own (the API refuses the rest until then). */
export function FirstPassword({ email, onChanged, onSignOut }: Props) {
  return (
    <main className="sign-in">
      <section className="sign-in-card" aria-labelledby="first-password-title">
        <h1 id="first-password-title">Choose your password</h1>
        <p>
          The password of <strong>{email}</strong> was set by an administrator. Choose your own to continue.
        </p>
        <PasswordChangeForm currentLabel="Password you were given" submitLabel="Save and continue" onChanged={onChanged} />
        <button type="button" className="link" onClick={onSignOut}>
          Sign out
        </button>
      </section>
    </main>
  );
}
