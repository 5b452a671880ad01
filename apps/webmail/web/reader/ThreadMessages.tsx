import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchMail, fetchThread } from '../api/endpoints';
import { isAbort, messageOf } from '../api/http';
import type { MailDetail, MailSummary } from '../api/types';
import { displayName, formatFullDate } from '../shared/format';

interface Props {
  threadId: number;
  openMailId: number;
}

/** More messages than this, or any on a phone, and the conversation starts folded to its one title line: the open mail's body stays in sight. */
const UNFOLDED_AT_MOST = 2;
const PHONE = '(max-width: 700px)';

/**
 * The conversation around the open mail: its other messages, oldest first, each folded to
 * its sender, date and first words until clicked. The open mail is the one expanded below.
 */
export function ThreadMessages({ threadId, openMailId }: Props) {
  const { t } = useTranslation();
  const [messages, setMessages] = useState<MailSummary[]>([]);
  const [expanded, setExpanded] = useState<Record<number, MailDetail | 'loading' | string>>({});
  /** The user's choice; until then, folded or not by the conversation's length and the screen. */
  const [unfolded, setUnfolded] = useState<boolean | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetchThread(threadId, controller.signal).then(
      (thread) => setMessages(thread.messages),
      (failure: unknown) => {
        if (!isAbort(failure)) setMessages([]);
      },
    );
    return () => controller.abort();
  }, [threadId, openMailId]);

  const others = messages.filter((message) => message.id !== openMailId);
  if (others.length === 0) return null;
  const open = unfolded ?? (others.length <= UNFOLDED_AT_MOST && !matchMedia(PHONE).matches);

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
      <h3 className="thread-title">
        <button type="button" className="thread-fold" aria-expanded={open} onClick={() => setUnfolded(!open)}>
          {t('reader.conversationCount', { count: messages.length })}
        </button>
      </h3>
      <ol hidden={!open}>
        {others.map((message) => {
          const shown = expanded[message.id];
          return (
            <li key={message.id} className="thread-message" data-mail-id={message.id}>
              <button type="button" className="thread-toggle" aria-expanded={Boolean(shown)} onClick={() => void toggle(message)}>
                <span className="thread-from">{displayName(message.from)}</span> <time dateTime={message.receivedAt}>{formatFullDate(message.receivedAt)}</time>
                {!shown && <span className="thread-snippet"> — {message.snippet}</span>}
              </button>
              {shown === 'loading' && <p className="thread-body">{t('reader.openingShort')}</p>}
              {typeof shown === 'string' && shown !== 'loading' && <p className="error">{shown}</p>}
              {typeof shown === 'object' && <pre className="thread-body mail-text">{shown.text}</pre>}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
