import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchMail, fetchThread } from '../api/endpoints';
import { isAbort, messageOf } from '../api/http';
import type { MailDetail, MailSummary } from '../api/types';
import { displayName, formatFullDate, formatListDate } from '../shared/format';
import { mailLanguage } from './mail-language';

interface Props {
  threadId: number;
  openMailId: number;
}

/**
 * The conversation around the open mail, under it: its other messages in date order, each folded to one
 * line (sender, its own first words without the quote, date) and opened in place by a click or Enter.
 */
export function ThreadMessages({ threadId, openMailId }: Props) {
  const { t } = useTranslation();
  const [messages, setMessages] = useState<MailSummary[]>([]);
  const [expanded, setExpanded] = useState<Record<number, MailDetail | 'loading' | string>>({});

  useEffect(() => {
    const controller = new AbortController();
    fetchThread(threadId, controller.signal).then(
      (thread) => setMessages([...thread.messages].sort((a, b) => Date.parse(a.receivedAt) - Date.parse(b.receivedAt))),
      (failure: unknown) => {
        if (!isAbort(failure)) setMessages([]);
      },
    );
    return () => controller.abort();
  }, [threadId, openMailId]);

  const others = messages.filter((message) => message.id !== openMailId);
  if (others.length === 0) return null;

  async function toggle(message: MailSummary) {
    if (expanded[message.id]) {
      setExpanded(({ [message.id]: _closed, ...rest }) => rest);
      return;
    }
    setExpanded((current) => ({ ...current, [message.id]: 'loading' }));
    try {
      const detail = await fetchMail(message.id);
      setExpanded((current) => ({ ...current, [message.id]: detail }));
    } catch (failure) {
      setExpanded((current) => ({ ...current, [message.id]: messageOf(failure) }));
    }
  }

  return (
    <section className="thread" aria-label={t('reader.conversation')}>
      <h3 className="thread-title">{t('reader.conversationCount', { count: messages.length })}</h3>
      <ol>
        {others.map((message) => {
          const shown = expanded[message.id];
          const bodyId = `thread-body-${message.id}`;
          return (
            <li key={message.id} className="thread-message" data-mail-id={message.id}>
              <button
                type="button"
                className="thread-toggle"
                aria-expanded={Boolean(shown)}
                aria-controls={shown ? bodyId : undefined}
                onClick={() => void toggle(message)}
              >
                <span className="thread-from">{displayName(message.from)}</span>
                {!shown && <span className="thread-snippet">{message.snippet}</span>}
                <time className="thread-date" dateTime={message.receivedAt} title={formatFullDate(message.receivedAt)}>
                  {formatListDate(message.receivedAt)}
                </time>
              </button>
              {shown && (
                <div id={bodyId} className="thread-body">
                  {shown === 'loading' && <p>{t('reader.openingShort')}</p>}
                  {typeof shown === 'string' && shown !== 'loading' && <p className="error">{shown}</p>}
                  {typeof shown === 'object' && (
                    <pre className="mail-text" lang={mailLanguage(shown.headers)}>
                      {shown.text}
                    </pre>
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
