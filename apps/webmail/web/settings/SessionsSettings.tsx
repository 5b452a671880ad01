import { useState } from 'react';
import { logoutEverywhere } from '../api/account';
import { messageOf } from '../api/http';

/** Signing out on every device: for a lost phone or a shared computer left signed in. */
export function SessionsSettings({ onSessionsEnded }: { onSessionsEnded(): void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function signOutEverywhere() {
    setBusy(true);
    setError(null);
    try {
      await logoutEverywhere();
      onSessionsEnded();
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="sessions-title">
      <h3 id="sessions-title">Sessions</h3>
      <p className="muted">Ends every session of your account, on every device, this one included.</p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button type="button" disabled={busy} onClick={() => void signOutEverywhere()}>
        Sign out everywhere
      </button>
    </section>
  );
}
