import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';

/** Where mail to one address goes. */
export interface RecipientAddress {
  /** Its user (a primary address or an alias), or every member of its group, groups inside it included, each once. */
  userIds: number[];
  /** A group's address: its members are reached through it, not addressed themselves. */
  group: boolean;
}

export interface ResolvedRecipients {
  /** Lower-cased address → where its mail goes, for the addresses Letterbox receives mail for. */
  known: Map<string, RecipientAddress>;
  /** Addresses in a Letterbox domain that no user or group has (or whose group has no member). */
  unknown: string[];
  /** Addresses in a domain no office owns: Letterbox does not relay. */
  foreign: string[];
}

/** Entries kept before the cache starts again from empty. */
const MAX_CACHED = 100_000;

/**
 * Each address with whether its domain is an office's, and the users it delivers to. A group
 * is expanded through the groups inside it: UNION (not UNION ALL) keeps each (address, group)
 * once, so a loop that slipped in ends the recursion instead of running it forever, and a
 * group reached by two ways is expanded once.
 */
const RESOLVE = namedStatement(
  'recipients-resolve',
  `WITH RECURSIVE wanted AS (SELECT DISTINCT unnest($1::text[]) AS address),
   expanded (address, group_id) AS (
     SELECT a.address, a.group_id FROM addresses a JOIN wanted w ON w.address = a.address WHERE a.kind = 'group'
     UNION
     SELECT e.address, m.member_group_id FROM expanded e JOIN group_members m ON m.group_id = e.group_id WHERE m.member_group_id IS NOT NULL
   )
   SELECT w.address,
          EXISTS (SELECT 1 FROM domains d WHERE d.name = substring(w.address FROM '@([^@]*)$')) AS domain_owned,
          a.kind = 'group' AS "group",
          CASE WHEN a.kind = 'group'
               THEN ARRAY(SELECT DISTINCT m.user_id FROM expanded e JOIN group_members m ON m.group_id = e.group_id
                           WHERE e.address = w.address AND m.user_id IS NOT NULL ORDER BY m.user_id)
               WHEN a.kind IS NOT NULL THEN ARRAY[a.user_id] END AS user_ids
     FROM wanted w LEFT JOIN addresses a ON a.address = w.address`,
);

interface Entry {
  /** Undefined: no mail is delivered to the address. */
  address: RecipientAddress | undefined;
  domainOwned: boolean;
  until: number;
}

/**
 * Where mail to an address goes: what intake checks before it accepts a recipient, and what
 * colleague delivery asks. Users' addresses and aliases, groups' addresses (their members,
 * nested groups expanded) and the offices' domains are all answered by one statement per
 * lookup. Answers are cached for `cacheMs`, so a burst of mail to the same people asks
 * the database once per address; for that long a new address may be refused, a deleted one
 * accepted (and then skipped by the ingest worker), and a group delivers to its members as
 * they were. Addresses already being looked up are waited for, not asked again: a burst
 * arriving with the cache cold costs one statement, not one per message. Usage and quotas
 * change with every message, so they are never cached here (RecipientQuotas).
 */
export class RecipientDirectory {
  private readonly cache = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<Map<string, Entry>>>();

  constructor(
    private readonly sql: Pool,
    private readonly cacheMs = 10_000,
  ) {}

  /** Whether the address is in a domain an office owns, whether or not anyone has it: a colleague's, or one claiming to be. */
  async inOwnDomain(address: string): Promise<boolean> {
    return (await this.resolve([address])).foreign.length === 0;
  }

  async resolve(addresses: string[]): Promise<ResolvedRecipients> {
    const wanted = [...new Set(addresses.map((address) => address.trim().toLowerCase()))];
    const now = Date.now();
    const entries = new Map<string, Entry>();
    const missing: string[] = [];
    const lookups = new Set<Promise<Map<string, Entry>>>();
    for (const address of wanted) {
      const cached = this.cache.get(address);
      if (cached && cached.until > now) entries.set(address, cached);
      else if (this.inFlight.has(address)) lookups.add(this.inFlight.get(address) as Promise<Map<string, Entry>>);
      else missing.push(address);
    }
    if (missing.length > 0) lookups.add(this.lookUp(missing, now));
    // Read from each lookup's own answer: the cache may have been emptied meanwhile.
    for (const found of await Promise.all(lookups)) for (const address of wanted) if (found.has(address)) entries.set(address, found.get(address) as Entry);
    const resolved: ResolvedRecipients = { known: new Map(), unknown: [], foreign: [] };
    for (const address of wanted) {
      const entry = entries.get(address);
      if (entry?.address) resolved.known.set(address, entry.address);
      else if (entry?.domainOwned) resolved.unknown.push(address);
      else resolved.foreign.push(address);
    }
    return resolved;
  }

  private lookUp(addresses: string[], now: number): Promise<Map<string, Entry>> {
    const lookup = this.query(addresses, now).finally(() => {
      for (const address of addresses) if (this.inFlight.get(address) === lookup) this.inFlight.delete(address);
    });
    for (const address of addresses) this.inFlight.set(address, lookup);
    return lookup;
  }

  private async query(addresses: string[], now: number): Promise<Map<string, Entry>> {
    const { rows } = await this.sql.query<{ address: string; domain_owned: boolean; group: boolean | null; user_ids: number[] | null }>({
      ...RESOLVE,
      values: [addresses],
    });
    if (this.cache.size + addresses.length > MAX_CACHED) this.cache.clear();
    const found = new Map<string, Entry>();
    for (const row of rows) {
      const userIds = row.user_ids ?? [];
      // A group without members takes no mail: accepting it would acknowledge a message stored for no one.
      const address = userIds.length > 0 ? { userIds, group: row.group === true } : undefined;
      const entry = { address, domainOwned: row.domain_owned, until: now + this.cacheMs };
      this.cache.set(row.address, entry);
      found.set(row.address, entry);
    }
    return found;
  }
}
