import type { Pool, PoolClient } from 'pg';
import { UnknownUserError, UserNotFoundError } from '../admin-errors';
import { ADMIN_USER_SELECT, mapAdminUserRow, type AdminUser, type AdminUserPage, type AdminUserRow } from './admin-user-view';

export interface UserListQuery {
  limit: number;
  /** Where the previous page ended (its nextCursor). */
  cursor?: string;
  /** A part of the address or of the display name, in any case. */
  q?: string;
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
const encodeCursor = (email: string) => Buffer.from(email).toString('base64url');
const decodeCursor = (cursor: string) => Buffer.from(cursor, 'base64url').toString();

/** The users of an office as its administrators see them, in order of address. */
export class UserDirectory {
  constructor(
    private readonly sql: Pool,
    /** USER_QUOTA_BYTES: the quota of a user without one of their own. */
    private readonly defaultQuotaBytes: number,
  ) {}

  async list(officeId: number, query: UserListQuery): Promise<AdminUserPage> {
    const { rows } = await this.sql.query<AdminUserRow>({
      text: `${ADMIN_USER_SELECT}
              WHERE u.office_id = $1 AND ($2::text IS NULL OR u.email > $2)
                AND ($3::text IS NULL OR u.email ILIKE $3 OR u.display_name ILIKE $3)
              ORDER BY u.email LIMIT $4`,
      values: [officeId, query.cursor === undefined ? null : decodeCursor(query.cursor), query.q ? likePattern(query.q) : null, query.limit + 1],
    });
    const page = rows.slice(0, query.limit);
    return {
      users: page.map((row) => mapAdminUserRow(row, this.defaultQuotaBytes)),
      nextCursor: rows.length > query.limit ? encodeCursor(page[page.length - 1].email) : null,
    };
  }

  /** The office's user; another office's is a UserNotFoundError like one that does not exist. */
  async get(officeId: number, userId: number, client: Pool | PoolClient = this.sql): Promise<AdminUser> {
    const { rows } = await client.query<AdminUserRow>({ text: `${ADMIN_USER_SELECT} WHERE u.id = $1 AND u.office_id = $2`, values: [userId, officeId] });
    if (!rows[0]) throw new UserNotFoundError(userId);
    return mapAdminUserRow(rows[0], this.defaultQuotaBytes);
  }

  /** The user of an address (the command line names users so). */
  async byEmail(email: string): Promise<{ id: number; officeId: number }> {
    const { rows } = await this.sql.query<{ id: number; office_id: number }>({
      text: 'SELECT id, office_id FROM users WHERE email = $1',
      values: [email.trim().toLowerCase()],
    });
    if (!rows[0]) throw new UnknownUserError(email);
    return { id: rows[0].id, officeId: rows[0].office_id };
  }
}
