import { useCallback, useEffect, useState } from 'react';
import { fetchMail } from '../api/endpoints';
import { isAbort, messageOf } from '../api/http';
import type { MailDetail } from '../api/types';
import { embedInlineImages } from './inline-images';

interface MailState {
  mail: MailDetail | null;
  /** The HTML with its inline images embedded, ready for the frame. */
  html: string | null;
  error: string | null;
  loading: boolean;
}

/** One mail with its body; `update` changes what is shown after an action. */
export function useMail(mailId: number | null) {
  const [state, setState] = useState<MailState>({ mail: null, html: null, error: null, loading: false });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (mailId === null) {
      setState({ mail: null, html: null, error: null, loading: false });
      return;
    }
    const controller = new AbortController();
    setState({ mail: null, html: null, error: null, loading: true });
    (async () => {
      const mail = await fetchMail(mailId, controller.signal);
      const html = mail.html ? await embedInlineImages(mail, controller.signal) : null;
      setState({ mail, html, error: null, loading: false });
    })().catch((failure: unknown) => {
      if (!isAbort(failure)) setState({ mail: null, html: null, error: messageOf(failure), loading: false });
    });
    return () => controller.abort();
  }, [mailId, attempt]);

  const update = useCallback((changes: Partial<MailDetail>) => {
    setState((previous) => (previous.mail ? { ...previous, mail: { ...previous.mail, ...changes } } : previous));
  }, []);

  const retry = useCallback(() => setAttempt((count) => count + 1), []);

  return { ...state, update, retry };
}
