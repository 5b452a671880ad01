import { HIERARCHY_DELIMITER, type ImapMailbox } from '../mailboxes/imap-mailboxes';
import { listMatcher } from '../mailboxes/list-pattern';
import { untagged } from '../protocol/response-format';
import { atomOf, ImapCommandError, listOf, type Token } from '../protocol/tokens';
import { ok, type CommandContext, type CommandHandler } from '../session/command-handler';
import { SIGNED_IN } from '../session/session-state';
import { mailboxNameArgument, mailboxNamePart } from './mailbox-names';
import { statusItems, statusValues } from './status-items';

/** What a LIST asked (RFC 3501, LIST-EXTENDED RFC 5258, SPECIAL-USE RFC 6154, LIST-STATUS RFC 5819). */
interface ListRequest {
  reference: string;
  patterns: string[];
  /** SPECIAL-USE selection: only the system folders. */
  specialUseOnly: boolean;
  /** SUBSCRIBED selection or return: every mailbox shows \Subscribed. */
  subscribed: boolean;
  /** RETURN (STATUS (...)): a STATUS response after each mailbox listed. */
  status?: string[];
}

const SELECTION = new Set(['SUBSCRIBED', 'REMOTE', 'RECURSIVEMATCH', 'SPECIAL-USE']);
const RETURNS = new Set(['SUBSCRIBED', 'CHILDREN', 'SPECIAL-USE', 'STATUS']);

/** LIST, and LSUB (every visible mailbox is subscribed). Locked mailboxes are never listed. */
export const list: CommandHandler = {
  states: SIGNED_IN,
  run: async (context) => {
    const request = context.name === 'LSUB' ? lsubRequest(context) : listRequest(context);
    const response = context.name === 'LSUB' ? 'LSUB' : 'LIST';
    const { session, services } = context;
    if (request.patterns.length === 1 && request.patterns[0] === '') {
      // RFC 3501: an empty pattern asks for the delimiter and the root.
      session.send(untagged(`${response} (\\Noselect) "${HIERARCHY_DELIMITER}" ""`));
      return ok(`${response} completed`);
    }
    const matchers = request.patterns.map((pattern) => listMatcher(request.reference, pattern));
    const mailboxes = (await services.mailboxes.visible(session.userId())).filter(
      (mailbox) => (!request.specialUseOnly || mailbox.specialUse) && matchers.some((matches) => matches(mailbox.name)),
    );
    for (const mailbox of mailboxes) {
      const name = mailboxNamePart(mailbox.name, session);
      session.send(untagged(`${response} (${attributes(mailbox, request).join(' ')}) "${HIERARCHY_DELIMITER}" `, name));
      if (request.status) {
        const values = await statusValues(mailbox, request.status, (mailboxId) => services.mailboxState(session.userId(), mailboxId));
        session.send(untagged('STATUS ', name, ` (${values})`));
      }
    }
    return ok(`${response} completed`);
  },
};

function attributes(mailbox: ImapMailbox, request: ListRequest): string[] {
  return ['\\HasNoChildren', ...(request.subscribed ? ['\\Subscribed'] : []), ...(mailbox.specialUse ? [mailbox.specialUse] : [])];
}

function lsubRequest({ args, session }: CommandContext): ListRequest {
  if (args.length !== 2) throw new ImapCommandError('LSUB takes a reference and a pattern');
  return { reference: mailboxNameArgument(args[0], session), patterns: [mailboxNameArgument(args[1], session)], specialUseOnly: false, subscribed: false };
}

function listRequest({ args, session }: CommandContext): ListRequest {
  let at = 0;
  const request: ListRequest = { reference: '', patterns: [], specialUseOnly: false, subscribed: false };
  if (args[0]?.type === 'list') {
    for (const option of args[0].items.map((item) => atomOf(item, 'a selection option').toUpperCase())) {
      if (!SELECTION.has(option)) throw new ImapCommandError(`unknown LIST selection option ${option}`);
      if (option === 'SPECIAL-USE') request.specialUseOnly = true;
      if (option === 'SUBSCRIBED') request.subscribed = true;
    }
    at = 1;
  }
  request.reference = mailboxNameArgument(args[at], session);
  const patterns = args[at + 1];
  request.patterns = (patterns?.type === 'list' ? patterns.items : [patterns]).map((pattern) => mailboxNameArgument(pattern, session));
  if (request.patterns.length === 0) throw new ImapCommandError('expected a mailbox pattern');
  const rest = args.slice(at + 2);
  if (rest.length > 0) readReturnOptions(rest, request);
  return request;
}

function readReturnOptions(rest: Token[], request: ListRequest): void {
  if (rest.length !== 2 || rest[0].type !== 'atom' || rest[0].value.toUpperCase() !== 'RETURN') throw new ImapCommandError('expected RETURN (options)');
  const options = listOf(rest[1], 'RETURN options');
  for (let index = 0; index < options.length; index++) {
    const option = atomOf(options[index], 'a return option').toUpperCase();
    if (!RETURNS.has(option)) throw new ImapCommandError(`unknown LIST return option ${option}`);
    if (option === 'SUBSCRIBED') request.subscribed = true;
    if (option === 'STATUS') request.status = statusItems(listOf(options[++index], 'STATUS items'));
  }
}
