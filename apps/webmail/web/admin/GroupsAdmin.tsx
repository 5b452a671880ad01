import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteGroup, fetchGroups, fetchUsers } from '../api/admin';
import { messageOf } from '../api/http';
import type { AdminGroup, AdminUser } from '../api/types';
import { ErrorMessage, Loading } from '../shared/LoadStates';
import { ConfirmDelete } from './ConfirmDelete';
import { GroupForm } from './GroupForm';

/** As many users as a member list offers to choose from. */
const MEMBER_CHOICES = 200;

type Editing = { kind: 'new' } | { kind: 'edit'; group: AdminGroup } | null;

/** Team addresses: mail to a group reaches each of its members once, members of groups inside it included. */
export function GroupsAdmin() {
  const { t } = useTranslation();
  const [groups, setGroups] = useState<AdminGroup[] | null>(null);
  const [users, setUsers] = useState<AdminUser[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>(null);

  const load = useCallback(async () => {
    try {
      const [found, page] = await Promise.all([fetchGroups(), fetchUsers({ limit: MEMBER_CHOICES })]);
      setGroups(found);
      setUsers(page.users);
      setError(null);
    } catch (failure) {
      setError(messageOf(failure));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const saved = () => {
    setEditing(null);
    void load();
  };

  if (error) return <ErrorMessage message={error} onRetry={() => void load()} />;
  if (!groups) return <Loading label={t('admin.loadingGroups')} />;
  return (
    <section aria-label={t('admin.section.groups')}>
      <div className="admin-toolbar">
        <button type="button" className="primary" onClick={() => setEditing({ kind: 'new' })}>
          {t('admin.newGroup')}
        </button>
      </div>
      {editing?.kind === 'new' && <GroupForm users={users} groups={groups} onSaved={saved} onCancel={() => setEditing(null)} />}
      {groups.length === 0 && <p className="muted">{t('admin.noGroups')}</p>}
      <ul className="group-list">
        {groups.map((group) => (
          <li key={group.id} className="card" aria-label={group.name}>
            <h3>
              {group.name} <span className="muted">{group.address}</span>
            </h3>
            <p>
              {t('admin.members')}{' '}
              {[...group.members.users.map((user) => user.email), ...group.members.groups.map((inner) => t('admin.groupMember', { name: inner.name }))].join(
                ', ',
              ) || t('admin.noMembers')}
            </p>
            {editing?.kind === 'edit' && editing.group.id === group.id ? (
              <GroupForm group={group} users={users} groups={groups} onSaved={saved} onCancel={() => setEditing(null)} />
            ) : (
              <span className="form-buttons">
                <button type="button" onClick={() => setEditing({ kind: 'edit', group })}>
                  {t('admin.edit')}
                  <span className="visually-hidden"> {group.name}</span>
                </button>
                <ConfirmDelete
                  what={t('common.delete')}
                  warning={t('admin.deleteGroup', { name: group.name, address: group.address })}
                  onDelete={() => deleteGroup(group.id)}
                  onDeleted={() => void load()}
                />
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
