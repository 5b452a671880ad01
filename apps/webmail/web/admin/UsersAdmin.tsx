import { Fragment, useCallback, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchUsers } from '../api/admin';
import type { AdminUser, Me } from '../api/types';
import { formatSize } from '../shared/format';
import { ErrorMessage, Loading } from '../shared/LoadStates';
import { usePages } from './usePages';
import { UserCreateForm } from './UserCreateForm';
import { UserEditor } from './UserEditor';

const PAGE_SIZE = 50;

/** The office's users: searched, paged, created, and each one edited in place. */
export function UsersAdmin({ me }: { me: Me }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [openId, setOpenId] = useState<number | null>(null);
  const fetchPage = useCallback(
    (cursor: string | null, signal: AbortSignal) =>
      fetchUsers({ q: search, cursor, limit: PAGE_SIZE }, signal).then((page) => ({ items: page.users, nextCursor: page.nextCursor })),
    [search],
  );
  const users = usePages(fetchPage);

  function searchFor(event: FormEvent) {
    event.preventDefault();
    setSearch(typed.trim());
  }

  const changed = (user: AdminUser) => users.setItems((current) => current?.map((one) => (one.id === user.id ? user : one)) ?? null);

  return (
    <section aria-label={t('admin.section.users')}>
      <div className="admin-toolbar">
        <form role="search" onSubmit={searchFor}>
          <input
            type="search"
            aria-label={t('admin.searchUsers')}
            placeholder={t('admin.searchPlaceholder')}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
          />
          <button type="submit">{t('admin.search')}</button>
        </form>
        <button type="button" className="primary" onClick={() => setCreating((open) => !open)} aria-expanded={creating}>
          {t('admin.newUser')}
        </button>
      </div>
      {creating && (
        <UserCreateForm
          onCreated={(user) => {
            setCreating(false);
            setOpenId(user.id);
            void users.reload();
          }}
          onCancel={() => setCreating(false)}
        />
      )}
      {users.error && <ErrorMessage message={users.error} onRetry={() => void users.reload()} />}
      {!users.items && !users.error && <Loading label={t('admin.loadingUsers')} />}
      {users.items && (
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">{t('admin.address')}</th>
              <th scope="col">{t('admin.name')}</th>
              <th scope="col">{t('admin.role')}</th>
              <th scope="col">{t('admin.state')}</th>
              <th scope="col">{t('admin.storage')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('admin.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.items.length === 0 && (
              <tr>
                <td colSpan={6}>{t('admin.noUsers')}</td>
              </tr>
            )}
            {users.items.map((user) => (
              <Fragment key={user.id}>
                <tr className={user.state === 'disabled' ? 'disabled-row' : undefined} data-email={user.email}>
                  <td>
                    {user.email}
                    {user.aliases.length > 0 && <span className="muted">{t('admin.aliasCount', { count: user.aliases.length })}</span>}
                  </td>
                  <td>{user.displayName}</td>
                  <td>{user.role === 'admin' ? t('admin.administrator') : t('admin.user')}</td>
                  <td>
                    {user.state === 'active'
                      ? user.passwordChangeRequired
                        ? t('admin.stateActivePending')
                        : t('admin.stateActive')
                      : t('admin.stateDisabled')}
                  </td>
                  <td>{t('admin.storageUsed', { used: formatSize(user.usedBytes), quota: formatSize(user.quotaBytes) })}</td>
                  <td>
                    <button type="button" aria-expanded={openId === user.id} onClick={() => setOpenId(openId === user.id ? null : user.id)}>
                      {t('admin.edit')}
                      <span className="visually-hidden"> {user.email}</span>
                    </button>
                  </td>
                </tr>
                {openId === user.id && (
                  <tr className="editor-row">
                    <td colSpan={6}>
                      <UserEditor
                        user={user}
                        isSelf={user.id === me.id}
                        onChanged={changed}
                        onDeleted={() => {
                          setOpenId(null);
                          users.setItems((current) => current?.filter((one) => one.id !== user.id) ?? null);
                        }}
                      />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
      {users.hasMore && (
        <button type="button" className="link" disabled={users.loading} onClick={() => void users.more()}>
          {users.loading ? t('common.loading') : t('admin.moreUsers')}
        </button>
      )}
    </section>
  );
}
