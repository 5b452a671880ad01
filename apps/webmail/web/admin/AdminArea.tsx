import type { Me } from '../api/types';
import { Loading } from '../shared/LoadStates';
import { ADMIN_SECTIONS, pageHash, type AdminSection } from '../shared/route';
import { AuditLog } from './AuditLog';
import { DomainsAdmin } from './DomainsAdmin';
import { GroupsAdmin } from './GroupsAdmin';
import { OfficeAdmin } from './OfficeAdmin';
import { UsersAdmin } from './UsersAdmin';

const TITLES: Record<AdminSection, string> = { users: 'Users', groups: 'Groups', domains: 'Domains', office: 'Office', audit: 'Audit log' };

/** The office administrator's pages; the API refuses them to anyone else, and the webmail does not offer them. */
export function AdminArea({ section, me }: { section: AdminSection; me: Me | null }) {
  if (!me) return <Loading />;
  if (me.role !== 'admin') {
    return (
      <main className="page">
        <h2>Administration</h2>
        <p>Only the office&apos;s administrators can open this page.</p>
      </main>
    );
  }
  return (
    <main className="page admin" aria-labelledby="admin-title">
      <h2 id="admin-title">Administration</h2>
      <nav className="tabs" aria-label="Administration">
        {ADMIN_SECTIONS.map((name) => (
          <a key={name} href={pageHash({ kind: 'admin', section: name })} aria-current={name === section ? 'page' : undefined}>
            {TITLES[name]}
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
