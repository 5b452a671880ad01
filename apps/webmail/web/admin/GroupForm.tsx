import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { changeGroup, createGroup } from '../api/admin';
import type { AdminGroup, AdminUser } from '../api/types';
import { FormError } from '../shared/FormError';
import { useAction } from '../shared/useAction';

interface Props {
  /** The group being edited; none for a new one. */
  group?: AdminGroup;
  users: AdminUser[];
  groups: AdminGroup[];
  onSaved(): void;
  onCancel(): void;
}

function toggled(ids: number[], id: number, on: boolean): number[] {
  return on ? [...ids, id] : ids.filter((one) => one !== id);
}

/** A group's name, its address (chosen once), and its members: users and other groups. */
export function GroupForm({ group, users, groups, onSaved, onCancel }: Props) {
  const { t } = useTranslation();
  const [name, setName] = useState(group?.name ?? '');
  const [address, setAddress] = useState(group?.address ?? '');
  const [userIds, setUserIds] = useState<number[]>(group?.members.users.map((user) => user.id) ?? []);
  const [groupIds, setGroupIds] = useState<number[]>(group?.members.groups.map((inner) => inner.id) ?? []);
  const { run, busy, error } = useAction();
  const prefix = `group-${group?.id ?? 'new'}`;
  // Members chosen earlier stay listed even when they are not among the users offered.
  const offered = [...users, ...(group?.members.users ?? []).filter((member) => !users.some((user) => user.id === member.id))];

  async function submit(event: FormEvent) {
    event.preventDefault();
    const done = await run(() =>
      group ? changeGroup(group.id, { name: name.trim(), userIds, groupIds }) : createGroup({ name: name.trim(), address: address.trim(), userIds, groupIds }),
    );
    if (done) onSaved();
  }

  return (
    <form
      className="admin-form card"
      aria-label={group ? t('admin.editNamed', { name: group.name }) : t('admin.newGroup')}
      onSubmit={(event) => void submit(event)}
    >
      <label htmlFor={`${prefix}-name`}>{t('admin.groupName')}</label>
      <input id={`${prefix}-name`} required value={name} onChange={(event) => setName(event.target.value)} />
      <label htmlFor={`${prefix}-address`}>{t('admin.groupAddress')}</label>
      <input id={`${prefix}-address`} type="email" required disabled={!!group} value={address} onChange={(event) => setAddress(event.target.value)} />
      <fieldset>
        <legend>{t('admin.memberUsers')}</legend>
        {offered.map((user) => (
          <label key={user.id} className="check">
            <input type="checkbox" checked={userIds.includes(user.id)} onChange={(event) => setUserIds(toggled(userIds, user.id, event.target.checked))} />{' '}
            {user.email}
          </label>
        ))}
      </fieldset>
      {groups.some((other) => other.id !== group?.id) && (
        <fieldset>
          <legend>{t('admin.memberGroups')}</legend>
          {groups
            .filter((other) => other.id !== group?.id)
            .map((other) => (
              <label key={other.id} className="check">
                <input
                  type="checkbox"
                  checked={groupIds.includes(other.id)}
                  onChange={(event) => setGroupIds(toggled(groupIds, other.id, event.target.checked))}
                />{' '}
                {other.name} ({other.address})
              </label>
            ))}
        </fieldset>
      )}
      <FormError message={error} />
      <span className="form-buttons">
        <button type="submit" className="primary" disabled={busy}>
          {group ? t('admin.saveGroup') : t('admin.createGroup')}
        </button>
        <button type="button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </span>
    </form>
  );
}
