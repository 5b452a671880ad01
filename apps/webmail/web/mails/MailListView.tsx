import { useEffect, useRef } from 'react';
import type { MailSummary } from '../api/types';
import { ErrorMessage, Loading } from '../shared/LoadStates';
import { MailRow } from './MailRow';
import type { MailList } from './useMailList';

interface Props {
  title: string;
  list: MailList;
  selectedId: number | null;
  sentView: boolean;
  filtered: boolean;
  onOpen(mail: MailSummary): void;
}

/** The rows, with more loaded as the end scrolls into view (or by the button). */
export function MailListView({ title, list, selectedId, sentView, filtered, onOpen }: Props) {
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasMore, loadMore } = list;

  useEffect(() => {
    const element = sentinel.current;
    if (!element || !hasMore) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) loadMore();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasMore, loadMore, list.items.length]);

  return (
    <div className="mail-list-scroll">
      <h2 className="list-title">
        {title} <span className="list-total">{list.status !== 'loading' && `${list.total} ${list.total === 1 ? 'mail' : 'mails'}`}</span>
      </h2>
      {list.status === 'loading' && <Loading label="Loading mail…" />}
      {list.status === 'error' && list.error && <ErrorMessage message={list.error} onRetry={list.retry} />}
      {list.status !== 'loading' && list.items.length === 0 && list.status !== 'error' && (
        <p className="empty">{filtered ? 'No mail matches.' : 'No mail here.'}</p>
      )}
      {list.items.length > 0 && (
        <ol className="mail-list" aria-label={`${title} messages`} aria-busy={list.status === 'more'}>
          {list.items.map((mail) => (
            <MailRow key={mail.id} mail={mail} selected={mail.id === selectedId} sentView={sentView} onOpen={onOpen} />
          ))}
        </ol>
      )}
      {list.hasMore && (
        <div ref={sentinel} className="load-more">
          {list.status === 'more' ? (
            <Loading label="Loading more…" />
          ) : (
            <button type="button" onClick={list.loadMore}>
              Load more
            </button>
          )}
        </div>
      )}
    </div>
  );
}
