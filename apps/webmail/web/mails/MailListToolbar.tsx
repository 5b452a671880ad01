import { useEffect, useState, type FormEvent, type RefObject } from 'react';
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
          Search mail
        </label>
        <input
          id="search-text"
          ref={searchRef}
          type="search"
          placeholder='Search (/): words, "a phrase", from:, has:attachment'
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            if (event.target.value === '' && options.search) onChange({ ...options, search: '' });
          }}
        />
        <button type="submit">Search</button>
      </form>
      {options.search && (
        <p className="search-scope" role="status">
          {options.searchFolderOnly ? (
            <span className="chip">
              In {folderName}
              <button
                type="button"
                className="icon"
                aria-label={`Search every folder, not only ${folderName}`}
                onClick={() => onChange({ ...options, searchFolderOnly: false })}
              >
                ✕
              </button>
            </span>
          ) : (
            <>
              In all folders{' '}
              <button type="button" className="link" onClick={() => onChange({ ...options, searchFolderOnly: true })}>
                Only in {folderName}
              </button>
            </>
          )}
        </p>
      )}
      <div className="filters" role="group" aria-label="Filters and order">
        <label>
          <input type="checkbox" checked={options.conversations} onChange={(event) => onChange({ ...options, conversations: event.target.checked })} />{' '}
          Conversations
        </label>
        <label>
          <input type="checkbox" checked={options.unreadOnly} onChange={(event) => onChange({ ...options, unreadOnly: event.target.checked })} /> Unread
        </label>
        <label>
          <input type="checkbox" checked={options.flaggedOnly} onChange={(event) => onChange({ ...options, flaggedOnly: event.target.checked })} /> Flagged
        </label>
        <label>
          <input type="checkbox" checked={options.withAttachments} onChange={(event) => onChange({ ...options, withAttachments: event.target.checked })} />{' '}
          Attachments
        </label>
        <label htmlFor="sort-order" className="visually-hidden">
          Order
        </label>
        <select
          id="sort-order"
          value={options.sort}
          disabled={options.conversations}
          onChange={(event) => onChange({ ...options, sort: event.target.value as ListOptions['sort'] })}
        >
          <option value="-receivedAt">Newest first</option>
          <option value="receivedAt">Oldest first</option>
        </select>
      </div>
    </div>
  );
}
