import { useEffect, useState, type FormEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { IconButton } from '../shared/IconButton';
import { ListFilterMenu } from './ListFilterMenu';
import type { ListOptions } from './useMailList';

interface Props {
  options: ListOptions;
  /** The open folder's name, which a search can be kept to. */
  folderName: string;
  onChange(options: ListOptions): void;
  searchRef: RefObject<HTMLInputElement | null>;
}

/** One row: full-text search (with operators), and a menu of the list's filters and order. */
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
      <div className="list-toolbar-row">
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
          <IconButton type="submit" icon="search" label={t('toolbar.search')} />
        </form>
        <ListFilterMenu options={options} onChange={onChange} />
      </div>
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
    </div>
  );
}
