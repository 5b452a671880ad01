import { useEffect, useState, type FormEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListOptions } from './useMailList';

interface Props {
  options: ListOptions;
  /** The open folder's name, which a search can be kept to. */
  folderName: string;
  onChange(options: ListOptions): void;
  searchRef: RefObject<HTMLInputElement | null>;
}

/** Full-text search (with operators), conversations, sort order, and the unread / flagged / attachment filters. */
export function MailListToolbar({ options, folderName, onChange, searchRef }: Props) {
  const { t } = useTranslation();
  const [search, setSearch] = useState(options.search);
  useEffect(() => setSearch(options.search), [options.search]);

  function submit(event: FormEvent) {
    event.preventDefault();
    onChange({ ...options, search });
  }

  return (
    <div className="list-toolbar">
      <form role="search" className="search" onSubmit={submit}>
        <label htmlFor="search-text" className="visually-hidden">
          {t('toolbar.searchLabel')}
        </label>
        <input
          id="search-text"
          ref={searchRef}
          type="search"
          placeholder={t('toolbar.searchPlaceholder')}
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            if (event.target.value === '' && options.search) onChange({ ...options, search: '' });
          }}
        />
        <button type="submit">{t('toolbar.search')}</button>
      </form>
      {options.search && (
        <p className="search-scope" role="status">
          {options.searchFolderOnly ? (
            <span className="chip">
              {t('toolbar.inFolder', { folder: folderName })}
              <button
                type="button"
                className="icon"
                aria-label={t('toolbar.searchEverywhere', { folder: folderName })}
                onClick={() => onChange({ ...options, searchFolderOnly: false })}
              >
                ✕
              </button>
            </span>
          ) : (
            <>
              {t('toolbar.inAllFolders')}{' '}
              <button type="button" className="link" onClick={() => onChange({ ...options, searchFolderOnly: true })}>
                {t('toolbar.onlyInFolder', { folder: folderName })}
              </button>
            </>
          )}
        </p>
      )}
      <div className="filters" role="group" aria-label={t('toolbar.filters')}>
        <label>
          <input type="checkbox" checked={options.conversations} onChange={(event) => onChange({ ...options, conversations: event.target.checked })} />{' '}
          {t('toolbar.conversations')}
        </label>
        <label>
          <input type="checkbox" checked={options.unreadOnly} onChange={(event) => onChange({ ...options, unreadOnly: event.target.checked })} />{' '}
          {t('toolbar.unread')}
        </label>
        <label>
          <input type="checkbox" checked={options.flaggedOnly} onChange={(event) => onChange({ ...options, flaggedOnly: event.target.checked })} />{' '}
          {t('toolbar.flagged')}
        </label>
        <label>
          <input type="checkbox" checked={options.withAttachments} onChange={(event) => onChange({ ...options, withAttachments: event.target.checked })} />{' '}
          {t('toolbar.attachments')}
        </label>
        <label htmlFor="sort-order" className="visually-hidden">
          {t('toolbar.order')}
        </label>
        <select
          id="sort-order"
          value={options.sort}
          disabled={options.conversations}
          onChange={(event) => onChange({ ...options, sort: event.target.value as ListOptions['sort'] })}
        >
          <option value="-receivedAt">{t('toolbar.newestFirst')}</option>
          <option value="receivedAt">{t('toolbar.oldestFirst')}</option>
        </select>
      </div>
    </div>
  );
}
