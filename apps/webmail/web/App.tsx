import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { logout } from './api/account';
import { onSetupRequired, onSessionExpired, setAccessToken } from './api/http';
import type { Session } from './api/types';
import { storeDraft, storedDraft, type Draft } from './compose/draft';
import { FirstPassword } from './session/FirstPassword';
import { RequiredTwoFactor } from './session/RequiredTwoFactor';
import { loadSession, saveSession } from './session/session-storage';
import { SignIn } from './session/SignIn';
import { Workspace } from './Workspace';

const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Signed in or not. An expired session (a 401 from any call, or its expiry time passing)
 * returns to the sign-in screen; where the user was (the address) and an open draft are
 * kept, so signing in again continues there.
 */
export function App() {
  const { t } = useTranslation();
  const [session, setSession] = useState<Session | null>(() => {
    const stored = loadSession();
    setAccessToken(stored?.accessToken ?? null);
    return stored;
  });
  const [notice, setNotice] = useState<string | null>(null);
  const [lastEmail, setLastEmail] = useState(session?.user.email ?? '');
  const [draft, setDraft] = useState<Draft | null>(storedDraft);
  const [composing, setComposing] = useState(() => draft !== null);
  useEffect(() => storeDraft(draft), [draft]);

  const signOut = useCallback(
    (reason: string | null) => {
      setAccessToken(null);
      saveSession(null);
      setSession((current) => {
        if (current) setLastEmail(current.user.email);
        return null;
      });
      setNotice(reason);
      if (!reason) {
        // Signed out on purpose: whoever signs in next starts afresh, at their inbox.
        setDraft(null);
        setComposing(false);
        history.replaceState(null, '', '#/');
      }
    },
    [setDraft],
  );

  /** The user's own sign-out ends the session on the server, then here (here even if the server could not be told). */
  const signOutHere = useCallback(async () => {
    if (session) await logout(session.accessToken).catch(() => undefined);
    signOut(null);
  }, [session, signOut]);

  useEffect(() => {
    onSessionExpired(() => signOut(t('app.sessionExpired')));
    return () => onSessionExpired(null);
  }, [signOut, t]);

  // The API refuses everything until a required setup is done (a password reset, or the office starting to require
  // two-factor sign-in, while the user was signed in).
  useEffect(() => {
    onSetupRequired((setup) => {
      const flag = setup === 'password' ? 'passwordChangeRequired' : 'totpSetupRequired';
      setSession((current) => {
        if (!current || current[flag]) return current;
        const next = { ...current, [flag]: true };
        saveSession(next);
        return next;
      });
    });
    return () => onSetupRequired(null);
  }, []);

  const totpSetUp = useCallback(() => {
    setSession((current) => {
      if (!current) return current;
      const next = { ...current, totpSetupRequired: false };
      saveSession(next);
      return next;
    });
  }, []);

  useEffect(() => {
    if (!session) return;
    const timer = setTimeout(() => signOut(t('app.sessionExpired')), Math.min(MAX_TIMER_MS, new Date(session.expiresAt).getTime() - Date.now()));
    return () => clearTimeout(timer);
  }, [session, signOut, t]);

  function signedIn(next: Session) {
    if (lastEmail && next.user.email !== lastEmail) {
      // Someone else: nothing of the previous user's work carries over.
      setDraft(null);
      setComposing(false);
      history.replaceState(null, '', '#/');
    }
    setAccessToken(next.accessToken);
    saveSession(next);
    setSession(next);
    setNotice(null);
  }

  useEffect(() => {
    document.title = session ? `Letterbox – ${session.user.email}` : t('app.signInTitle');
  }, [session, t]);

  if (!session) return <SignIn notice={notice} lastEmail={lastEmail} onSignedIn={signedIn} />;
  if (session.passwordChangeRequired) return <FirstPassword email={session.user.email} onChanged={signedIn} onSignOut={() => void signOutHere()} />;
  if (session.totpSetupRequired) return <RequiredTwoFactor email={session.user.email} onDone={totpSetUp} onSignOut={() => void signOutHere()} />;
  return (
    <Workspace
      key={session.user.id}
      session={session}
      draft={draft}
      composing={composing}
      onDraft={setDraft}
      onComposing={setComposing}
      onSignOut={() => void signOutHere()}
      onSession={signedIn}
      onSessionsEnded={() => signOut(null)}
    />
  );
}
