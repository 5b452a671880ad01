import path from 'node:path';
import { addressInput, commandLineAct, displayNameInput, domainNameInput, passwordInput } from '@letterbox/admin';
import type { z } from 'zod';
import type { AdminCliServices } from './admin-cli-services';
import { UsageError } from './usage-error';

interface CommandInput {
  positionals: string[];
  options: Record<string, string | boolean | undefined>;
}

export interface Command {
  usage: string;
  positionals: string[];
  options: Record<string, { type: 'string' | 'boolean'; required?: boolean }>;
  /** Does it, and answers what it did, to print. */
  run(services: AdminCliServices, input: CommandInput): Promise<string>;
}

/** The argument as the schema reads it, or a UsageError naming it. */
function valid<T extends z.ZodType>(schema: T, name: string, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UsageError(`${name}: ${parsed.error.issues[0].message}`);
  return parsed.data;
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

/** A record as a zone file line, the text in one quoted string (a DNS console splits it as it needs). */
const zoneLine = ({ dnsName, txt }: { dnsName: string; txt: string }) => `${dnsName}. IN TXT "${txt}"`;

/** Every command, by its two words. Each change is recorded in the office's audit log as the command line's (`cli`). */
export const COMMANDS: Record<string, Command> = {
  'office add': {
    usage: 'office add <domain> "<name>"',
    positionals: ['domain', 'name'],
    options: {},
    async run({ offices }, { positionals: [domain, name] }) {
      const office = await offices.create({ domain: valid(domainNameInput, '<domain>', domain), name: valid(displayNameInput, '<name>', name) });
      return `office ${office.domain} "${office.name}" created (id ${office.id})`;
    },
  },
  'user add': {
    usage: 'user add <email> --name "<name>" --password <password> [--admin]',
    positionals: ['email'],
    options: { name: { type: 'string', required: true }, password: { type: 'string', required: true }, admin: { type: 'boolean' } },
    async run({ offices, addUser }, { positionals: [email], options }) {
      const address = valid(addressInput, '<email>', email).toLowerCase();
      const office = await offices.byDomain(domainOf(address));
      const user = await addUser.add(commandLineAct(office.id), {
        email: address,
        displayName: valid(displayNameInput, '--name', options.name),
        password: valid(passwordInput, '--password', options.password),
        role: options.admin ? 'admin' : 'user',
      });
      return `user ${user.email} created in office ${office.domain} (id ${user.id}, role ${user.role}); the password must be changed at first sign-in`;
    },
  },
  'user list': {
    usage: 'user list [--office <domain>]',
    positionals: [],
    options: { office: { type: 'string' } },
    async run({ offices, users }, { options }) {
      const listed = typeof options.office === 'string' ? [await offices.byDomain(options.office)] : await offices.all();
      const lines: string[] = [];
      for (const office of listed) {
        for (let cursor: string | undefined, more = true; more;) {
          const page = await users.list(office.id, { limit: 200, cursor });
          lines.push(...page.users.map((user) => [user.email, user.role, user.state, user.displayName, office.domain].join('\t')));
          cursor = page.nextCursor ?? undefined;
          more = page.nextCursor !== null;
        }
      }
      return lines.length > 0 ? ['EMAIL\tROLE\tSTATE\tNAME\tOFFICE', ...lines].join('\n') : 'no users';
    },
  },
  'user disable': {
    usage: 'user disable <email>',
    positionals: ['email'],
    options: {},
    async run({ users, changeUser }, { positionals: [email] }) {
      const user = await users.byEmail(email);
      const changed = await changeUser.change(commandLineAct(user.officeId), user.id, { state: 'disabled' });
      return `user ${changed.email} disabled; every session of theirs has ended`;
    },
  },
  'user reset-password': {
    usage: 'user reset-password <email> --password <password>',
    positionals: ['email'],
    options: { password: { type: 'string', required: true } },
    async run({ users, changeUser }, { positionals: [email], options }) {
      const password = valid(passwordInput, '--password', options.password);
      const user = await users.byEmail(email);
      const changed = await changeUser.change(commandLineAct(user.officeId), user.id, { password });
      return `password of ${changed.email} reset; they must change it at their next sign-in, and every session of theirs has ended`;
    },
  },
  dkim: {
    usage: 'dkim <domain> [--retire <selector>]',
    positionals: ['domain'],
    options: { retire: { type: 'string' } },
    async run({ offices, dkimKeys, records }, { positionals: [domain], options }) {
      const name = valid(domainNameInput, '<domain>', domain).toLowerCase();
      const act = commandLineAct((await offices.byDomain(name)).id);
      if (typeof options.retire === 'string') {
        const retired = await dkimKeys.retire(act, name, options.retire);
        return `DKIM key ${retired.selector} of ${name} retired: mail is no longer signed with it; remove ${retired.dnsName} once the mail it signed has arrived`;
      }
      const made = await dkimKeys.generate(act, name);
      const { spf, dmarc } = await records.ofDomain(act.officeId, name);
      return [
        `new DKIM keys of ${name}: ${made.map((key) => `${key.selector} (${key.algorithm})`).join(', ')}; they sign from now on.`,
        'Publish these TXT records in its DNS (then retire older keys with --retire <selector>):',
        ...made.map(zoneLine),
        zoneLine(spf),
        zoneLine(dmarc),
      ].join('\n');
    },
  },
  'domain add': {
    usage: 'domain add <office-domain> <new-domain>',
    positionals: ['office-domain', 'new-domain'],
    options: {},
    async run({ offices, domains }, { positionals: [officeDomain, newDomain] }) {
      const office = await offices.byDomain(officeDomain);
      const added = await domains.add(commandLineAct(office.id), valid(domainNameInput, '<new-domain>', newDomain));
      return `domain ${added.name} added to office ${office.domain}`;
    },
  },
  backup: {
    usage: 'backup <dir>',
    positionals: ['dir'],
    options: {},
    async run({ backup }, { positionals: [dir] }) {
      const made = await backup(path.resolve(dir));
      return `backup written to ${path.resolve(dir)}: the database, ${made.blobs} blobs and ${made.spoolFiles} spool files (${made.startedAt} to ${made.finishedAt})`;
    },
  },
  export: {
    usage: 'export <email> <file.mbox>',
    positionals: ['email', 'file'],
    options: {},
    async run({ users, mbox }, { positionals: [email, file] }) {
      const user = await users.byEmail(email);
      const count = await mbox.export(user.id, path.resolve(file));
      return `${count} mails of ${email} written to ${path.resolve(file)}`;
    },
  },
  import: {
    usage: 'import <email> <file.mbox>',
    positionals: ['email', 'file'],
    options: {},
    async run({ users, mbox }, { positionals: [email, file] }) {
      const user = await users.byEmail(email);
      const { read, stored } = await mbox.import(user.id, path.resolve(file));
      return `${read} messages read from ${path.resolve(file)}: ${stored} stored for ${email}, ${read - stored} that their folder held already left out`;
    },
  },
  restore: {
    usage: 'restore <dir>',
    positionals: ['dir'],
    options: {},
    async run({ restore }, { positionals: [dir] }) {
      const restored = await restore(path.resolve(dir));
      return `backup of ${restored.finishedAt} restored: the database, ${restored.blobs} blobs and ${restored.spoolFiles} spool files; run \`npm run migrate\` before the apps if they are newer than the backup`;
    },
  },
};
