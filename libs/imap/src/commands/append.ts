import type { Readable } from 'node:stream';
import { ImapOverQuotaError } from '@letterbox/mail';
import { parseImapDateTime } from '../protocol/imap-date';
import type { LiteralRequest } from '../protocol/literal-intake';
import { storedFlags } from '../protocol/store-arguments';
import { ImapCommandError, listOf, textOf, type Token } from '../protocol/tokens';
import { ok, type CommandContext, type CommandHandler } from '../session/command-handler';
import { SIGNED_IN } from '../session/session-state';
import { mailboxNameArgument } from './mailbox-names';

/**
 * APPEND (RFC 3501 6.3.11, RFC 4315 APPENDUID): `APPEND mailbox [(flags)] [date-time] literal`, the message stored
 * in the mailbox as mail is stored, with its flags and internal date. The message's literal is streamed to storage
 * as it arrives: past the per-command limit (TOOBIG) or the user's quota (OVERQUOTA) it is refused before a byte
 * of it is read.
 */
export const append: CommandHandler = {
  states: SIGNED_IN,
  literalIntake: (request, session, services) => {
    if (session.state === 'not-authenticated' || !isMessage(request)) return undefined;
    return {
      maxBytes: services.appendLimit,
      admit: async (size) =>
        (await services.appender.fits(session.userId(), size)) ? undefined : { code: 'OVERQUOTA', text: 'The message would take you past your storage quota' },
    };
  },
  run: async (context) => {
    const { session, services } = context;
    const { args, message } = messageOf(context);
    const name = mailboxNameArgument(args[0], session);
    const options = args.slice(1);
    const flagList = options[0]?.type === 'list' ? listOf(options.shift(), 'flags') : [];
    const receivedAt = options.length > 0 ? parseImapDateTime(textOf(options.shift(), 'a date-time')) : undefined;
    if (options.length > 0) throw new ImapCommandError('unexpected arguments before the message');
    if (message.size === 0) throw new ImapCommandError('the message is empty');
    const mailbox = await services.mailboxes.find(session.userId(), name);
    if (!mailbox) throw new ImapCommandError(`No mailbox ${name}`, 'NO', 'TRYCREATE');
    try {
      // A client's own copy of what it just submitted: the send keeps the Sent copy.
      const appender = mailbox.specialUse === '\\Sent' ? services.sentAppends : services.appender;
      const appended = await appender.append(session.userId(), mailbox.id, {
        ...message,
        flags: storedFlags(flagList),
        ...(receivedAt ? { receivedAt } : {}),
      });
      if (!appended) throw new ImapCommandError(`No mailbox ${name}`, 'NO', 'TRYCREATE');
      // A client saving a draft: the webmail opens it in its editor as one of its own.
      if (mailbox.specialUse === '\\Drafts') await services.appendedDrafts.adopt(session.userId(), appended.mailId, [session.user!.email.toLowerCase()]);
      return ok('APPEND completed', `APPENDUID ${appended.uidValidity} ${appended.uid}`);
    } catch (error) {
      if (error instanceof ImapOverQuotaError) throw new ImapCommandError('The message would take you past your storage quota', 'NO', 'OVERQUOTA');
      throw error;
    }
  },
};

/** The literal is the message when an argument comes before it: a literal right after APPEND is the mailbox's name. */
function isMessage(request: LiteralRequest): boolean {
  return request.literals.length > 0 || /^\S+ APPEND \S+ /i.test(request.lines[0]);
}

/** The message as a stream (the intake took it), or a literal the reader read whole; the arguments before it. */
function messageOf({ args, literal }: CommandContext): { args: Token[]; message: { eml: Buffer | Readable; size: number } } {
  if (literal) return { args, message: { eml: literal.stream, size: literal.size } };
  const last = args[args.length - 1];
  if (args.length < 2 || last?.type !== 'literal') throw new ImapCommandError('expected the message as a literal');
  return { args: args.slice(0, -1), message: { eml: last.bytes, size: last.bytes.length } };
}
