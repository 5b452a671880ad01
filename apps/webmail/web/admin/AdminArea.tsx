import { useTranslation } from 'react-i18next';
import type { Me } from '../api/types';
import { Loading } from '../shared/LoadStates';
import { ADMIN_SECTIONS, pageHash, type AdminSection } from '../shared/route';
import { AuditLog } from './AuditLog';
import { DomainsAdmin } from './DomainsAdmin';
import { GroupsAdmin } from './GroupsAdmin';
import { OfficeAdmin } from './OfficeAdmin';
import { UsersAdmin } from './UsersAdmin';

/** The office administrator's pages; the API refuses them to anyone else, and the webmail does not offer them. */
export function AdminArea({ section, me }: { section: AdminSection; me: Me | null }) {
  const { t } = useTranslation();
  if (!me) return <Loading />;
  if (me.role !== 'admin') {
    return (
      <main className="page" tabIndex={-1}>
        <h2>{t('admin.title')}</h2>
        <p>{t('admin.onlyAdmins')}</p>
      </main>
    );
  }
  return (
    <main className="page admin" aria-labelledby="admin-title" tabIndex={-1}>
      <h2 id="admin-title">{t('admin.title')}</h2>
      <nav className="tabs" aria-label={t('admin.title')}>
        {ADMIN_SECTIONS.map((name) => (
          <a key={name} href={pageHash({ kind: 'admin', section: name })} aria-current={name === section ? 'page' : undefined}>
            {t(`admin.section.${name}`)}
          </a>
        ))}
      </nav>
      {section === 'users' && <UsersAdmin me={me} />}
      {section === 'groups' && <GroupsAdmin />}
      {section === 'domains' && <DomainsAdmin />}
      {section === 'office' && <OfficeAdmin />}
      {section === 'audit' && <AuditLog />}
    </main>
  );
}
