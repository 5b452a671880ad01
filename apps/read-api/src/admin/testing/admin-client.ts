import type { Database } from '@letterbox/db';
import { createTestUser, type TestUser } from '@letterbox/testing';
import type { RunningApi } from '../../testing/read-api-server';

/** What an error answers (application/problem+json). */
export interface Problem {
  status: number;
  detail: string;
}

export interface Answer<T> {
  status: number;
  body: T;
}

export interface AdminClient {
  admin: TestUser;
  token: string;
  /** A JSON request with the administrator's token (or another). */
  call<T = Problem>(method: string, path: string, body?: unknown, token?: string): Promise<Answer<T>>;
}

/** An office of its own (unique domain) whose first user is made its administrator, signed in to the API. */
export async function adminOffice(db: Database, api: RunningApi, name = 'admin'): Promise<AdminClient> {
  const admin = await createTestUser(db, name);
  await db.sql.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.id]);
  const token = await api.login(admin.email, admin.password);
  return {
    admin,
    token,
    call: <T>(method: string, path: string, body?: unknown, as = token) => call<T>(api, method, path, body, as),
  };
}

export async function call<T = Problem>(api: RunningApi, method: string, path: string, body: unknown, token: string): Promise<Answer<T>> {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}
