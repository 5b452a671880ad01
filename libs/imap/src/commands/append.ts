import { ImapOverQuotaError } from '@letterbox/mail';
import { parseImapDateTime } from '../protocol/imap-date';
import { storedFlags } from '../protocol/store-arguments';
import { ImapCommandError, listOf, textOf } from '../protocol/tokens';
import { ok, type CommandHandler } from '../session/command-handler';
import { SIGNED_IN } from '../session/session-state';
import { mailboxNameArgument } from './mailbox-names';

/**
 * APPEND (RFC 3501 6.3.11, RFC 4315 APPENDUID): `APPEND mailbox [(flags)] [date-time] literal`, the message stored
 * in the mailbox as mail is stored, with its flags and internal date. The literal is read whole by the command
 * reader, within its literal limit (IMAP_MAX_LITERAL_BYTES); a message past the user's quota is refused.
 */
export const append: CommandHandler = {
  states: SIGNED_IN,
  run: async ({ args, session, services }) => {
    const name = mailboxNameArgument(args[0], session);
    const message = args[args.length - 1];
    if (args.length < 2 || message?.type !== 'literal') throw new ImapCommandError('expected the message as a literal');
    const options = args.slice(1, -1);
    const flagList = options[0]?.type === 'list' ? listOf(options.shift(), 'flags') : [];
    const receivedAt = options.length > 0 ? parseImapDateTime(textOf(options.shift(), 'a date-time')) : undefined;
    if (options.length > 0) throw new ImapCommandError('unexpected arguments before the message');
    if (message.bytes.length === 0) throw new ImapCommandError('the message is empty');
    const mailbox = await services.mailboxes.find(session.userId(), name);
    if (!mailbox) throw new ImapCommandError(`No mailbox ${name}`, 'NO', 'TRYCREATE');
    try {
      const appended = await services.appender.append(session.userId(), mailbox.id, {
        eml: message.bytes,
        size: message.bytes.length,
        flags: storedFlags(flagList),
        ...(receivedAt ? { receivedAt } : {}),
      });
      if (!appended) throw new ImapCommandError(`No mailbox ${name}`, 'NO', 'TRYCREATE');
      return ok('APPEND completed', `APPENDUID ${appended.uidValidity} ${appended.uid}`);
    } catch (error) {
      if (error instanceof ImapOverQuotaError) throw new ImapCommandError('The message would take you past your storage quota', 'NO', 'OVERQUOTA');
      throw error;
    }
  },
};
