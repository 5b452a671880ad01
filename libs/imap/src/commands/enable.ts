import { untagged } from '../protocol/response-format';
import { atomOf, ImapCommandError } from '../protocol/tokens';
import { ok, type CommandHandler } from '../session/command-handler';

/** What ENABLE turns on here; anything else asked is left off, as RFC 5161 says. */
export const ENABLEABLE = new Set(['UTF8=ACCEPT', 'CONDSTORE', 'QRESYNC']);

/** QRESYNC turns CONDSTORE on with it (RFC 7162 3.2.3). */
const IMPLIED: Record<string, string[]> = { QRESYNC: ['CONDSTORE'] };

/** ENABLE (RFC 5161): answers the extensions it turned on now. */
export const enable: CommandHandler = {
  states: ['authenticated'],
  run: async ({ args, session }) => {
    if (args.length === 0) throw new ImapCommandError('ENABLE needs at least one capability');
    const asked = args.map((arg) => atomOf(arg, 'a capability').toUpperCase());
    const wanted = asked.flatMap((name) => [name, ...(IMPLIED[name] ?? [])]);
    const enabledNow = [...new Set(wanted)].filter((name) => ENABLEABLE.has(name) && !session.enabled.has(name));
    enabledNow.forEach((name) => session.enable(name));
    session.send(untagged(['ENABLED', ...enabledNow].join(' ')));
    return ok('ENABLE completed');
  },
};
