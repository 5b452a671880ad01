import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { MouseEvent, ReactNode } from 'react';
import { i18next } from '../i18n/i18n';
import { ErrorMessage, Loading } from '../shared/LoadStates';
import { MailRow } from './MailRow';
import type { ListItem, MailList } from './useMailList';

interface Props {
  title: string;
  list: MailList;
  selectedId: number | null;
  sentView: boolean;
  filtered: boolean;
  /** Rows ticked for a change to many at once. */
  checked: Set<number>;
  onCheck(item: ListItem, event: MouseEvent<HTMLInputElement>): void;
  onOpen(mail: ListItem): void;
  /** Above the rows: the actions on the ticked ones, mark all read. */
  actions?: ReactNode;
}

/** The rows, with more loaded as the end scrolls into view (or by the button). */
export function MailListView({ title, list, selectedId, sentView, filtered, checked, onCheck, onOpen, actions }: Props) {
  const { t } = useTranslation();
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
        {title}{' '}
        <span className="list-total">{list.status !== 'loading' && list.total !== null && totalLabel(list.total, list.totalCapped, list.items.length)}</span>
      </h2>
      {actions}
      {list.status === 'loading' && <Loading label={t('list.loading')} />}
      {list.status === 'error' && list.error && <ErrorMessage message={list.error} onRetry={list.retry} />}
      {list.status !== 'loading' && list.items.length === 0 && list.status !== 'error' && (
        <p className="empty">{filtered ? t('list.noMatches') : t('list.empty')}</p>
      )}
      {list.items.length > 0 && (
        <ol className="mail-list" aria-label={t('list.messagesOf', { title })} aria-busy={list.status === 'more'}>
          {list.items.map((mail) => (
            <MailRow
              key={mail.id}
              mail={mail}
              selected={mail.id === selectedId}
              checked={checked.has(mail.id)}
              sentView={sentView}
              onCheck={onCheck}
              onOpen={onOpen}
            />
          ))}
        </ol>
      )}
      {list.hasMore && (
        <div ref={sentinel} className="load-more">
          {list.status === 'more' ? (
            <Loading label={t('list.loadingMore')} />
          ) : (
            <button type="button" onClick={list.loadMore}>
              {t('list.loadMore')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}

/** A search is counted no further than its page, so the mails loaded so far can be more than its total. */
function totalLabel(total: number, capped: boolean, loaded: number): string {
  const shown = Math.max(total, loaded);
  return i18next.t(capped ? 'list.totalCapped' : 'list.total', { count: shown });
}
