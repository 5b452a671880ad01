import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { login } from '../api/endpoints';
import { ApiError, messageOf } from '../api/http';
import type { Session } from '../api/types';
import { i18next } from '../i18n/i18n';

const TOTP_REQUIRED = 'https://letterbox.dev/problems/totp-required';
const TOTP_INVALID = 'https://letterbox.dev/problems/totp-invalid';

/** What to tell the user about a refused sign-in. */
function refusal(failure: unknown): string {
  if (!(failure instanceof ApiError)) return messageOf(failure);
  if (failure.type === TOTP_REQUIRED) return i18next.t('signIn.codeRequired');
  if (failure.type === TOTP_INVALID) return i18next.t('signIn.codeInvalid');
  return failure.status === 401 ? i18next.t('signIn.wrongPassword') : failure.message;
}

interface Props {
  /** Why the user is asked to sign in again, e.g. an expired session. */
  notice: string | null;
  lastEmail: string;
  onSignedIn(session: Session): void;
}

export function SignIn({ notice, lastEmail, onSignedIn }: Props) {
  const { t } = useTranslation();
  const [email, setEmail] = useState(lastEmail);
  const [password, setPassword] = useState('');
  /** Asked for once the API answers that the account signs in with a second factor. */
  const [code, setCode] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    (lastEmail ? passwordRef : emailRef).current?.focus();
  }, [lastEmail]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await login(email.trim(), password, code?.trim() || undefined));
    } catch (failure) {
      const type = failure instanceof ApiError ? failure.type : null;
      const aboutTheCode = type === TOTP_REQUIRED || type === TOTP_INVALID;
      setError(refusal(failure));
      setBusy(false);
      if (aboutTheCode) {
        setCode('');
        requestAnimationFrame(() => codeRef.current?.focus());
      } else {
        setCode(null);
        passwordRef.current?.select();
      }
    }
  }

  return (
    <main className="sign-in">
      <form className="sign-in-card" onSubmit={submit} aria-labelledby="sign-in-title" noValidate={false}>
        <h1 id="sign-in-title">
          <span className="logo" aria-hidden="true">
            ✉
          </span>{' '}
          {t('app.name')}
        </h1>
        {notice && (
          <p className="notice" role="alert">
            {notice}
          </p>
        )}
        <label htmlFor="sign-in-email">{t('signIn.email')}</label>
        <input
          id="sign-in-email"
          ref={emailRef}
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <label htmlFor="sign-in-password">{t('signIn.password')}</label>
        <input
          id="sign-in-password"
          ref={passwordRef}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        {code !== null && (
          <>
            <label htmlFor="sign-in-code">{t('signIn.code')}</label>
            <input
              id="sign-in-code"
              ref={codeRef}
              autoComplete="one-time-code"
              inputMode="text"
              required
              value={code}
              onChange={(event) => setCode(event.target.value)}
            />
          </>
        )}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('signIn.submitting') : t('signIn.submit')}
        </button>
      </form>
    </main>
  );
}
