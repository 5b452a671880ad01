import { z } from 'zod';

export const adminGroupSchema = z
  .object({
    id: z.int(),
    name: z.string(),
    address: z.string(),
    members: z.object({
      users: z.array(z.object({ id: z.int(), email: z.string(), displayName: z.string() })),
      groups: z.array(z.object({ id: z.int(), name: z.string(), address: z.string() })),
    }),
  })
  .meta({ id: 'AdminGroup' });
export type AdminGroup = z.infer<typeof adminGroupSchema>;

export const adminGroupListSchema = z.object({ groups: z.array(adminGroupSchema) }).meta({ id: 'AdminGroupList' });

/** A group with its address and direct members, in one statement. */
export const ADMIN_GROUP_SELECT = `
  SELECT g.id, g.name, (SELECT min(a.address) FROM addresses a WHERE a.group_id = g.id) AS address,
         json_build_object(
           'users', coalesce((SELECT json_agg(json_build_object('id', u.id, 'email', u.email, 'displayName', u.display_name) ORDER BY u.email)
                                FROM group_members m JOIN users u ON u.id = m.user_id WHERE m.group_id = g.id), '[]'),
           'groups', coalesce((SELECT json_agg(json_build_object('id', s.id, 'name', s.name,
                                         'address', (SELECT min(a.address) FROM addresses a WHERE a.group_id = s.id)) ORDER BY s.name)
                                 FROM group_members m JOIN groups s ON s.id = m.member_group_id WHERE m.group_id = g.id), '[]')
         ) AS members
    FROM groups g`;
