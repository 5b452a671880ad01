import { useEffect, useRef, useState, type FormEvent } from 'react';
import { login } from '../api/endpoints';
import { messageOf } from '../api/http';
import type { Session } from '../api/types';

interface Props {
  /** Why the user is asked to sign in again, e.g. an expired session. */
  notice: string | null;
  lastEmail: string;
  onSignedIn(session: Session): void;
}

export function SignIn({ notice, lastEmail, onSignedIn }: Props) {
  const [email, setEmail] = useState(lastEmail);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    (lastEmail ? passwordRef : emailRef).current?.focus();
  }, [lastEmail]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await login(email.trim(), password));
    } catch (failure) {
      setError((failure as { status?: number }).status === 401 ? 'The email or password is wrong.' : messageOf(failure));
      setBusy(false);
      passwordRef.current?.select();
    }
  }

  return (
    <main className="sign-in">
      <form className="sign-in-card" onSubmit={submit} aria-labelledby="sign-in-title" noValidate={false}>
        <h1 id="sign-in-title">
          <span className="logo" aria-hidden="true">
            ✉
          </span>{' '}
          Letterbox
        </h1>
        {notice && (
          <p className="notice" role="alert">
            {notice}
          </p>
        )}
        <label htmlFor="sign-in-email">Email</label>
        <input
          id="sign-in-email"
          ref={emailRef}
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <label htmlFor="sign-in-password">Password</label>
        <input
          id="sign-in-password"
          ref={passwordRef}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
