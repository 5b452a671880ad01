import { loggerFor } from '@letterbox/observability';
import { untagged } from '../protocol/response-format';
import { ImapCommandError, noMore, textOf } from '../protocol/tokens';
import { ok, type CommandHandler } from '../session/command-handler';
import { ANY_STATE } from '../session/session-state';

const logger = loggerFor('imap');

/** RFC 2971's limits: 30 pairs, fields of 30 bytes, values of 1024. */
const MAX_PAIRS = 30;

/** ID (RFC 2971): the client says what it is, for the log; the server says it is Letterbox. */
export const id: CommandHandler = {
  states: ANY_STATE,
  run: async ({ args, session }) => {
    noMore(args, 1);
    const [parameters] = args;
    if (parameters?.type === 'list') {
      if (parameters.items.length % 2 !== 0 || parameters.items.length > MAX_PAIRS * 2) throw new ImapCommandError('ID takes up to 30 field and value pairs');
      const client: Record<string, string> = {};
      for (let index = 0; index < parameters.items.length; index += 2) {
        const field = textOf(parameters.items[index], 'an ID field');
        const value = parameters.items[index + 1];
        if (field.length > 30) throw new ImapCommandError('an ID field name is at most 30 characters');
        client[field] = value.type === 'atom' && value.value.toUpperCase() === 'NIL' ? '' : textOf(value, 'an ID value').slice(0, 1024);
      }
      logger.debug({ client, clientAddress: session.clientAddress }, 'IMAP client identified itself');
    } else if (parameters?.type !== 'atom' || parameters.value.toUpperCase() !== 'NIL') {
      throw new ImapCommandError('ID takes NIL or a list of field and value pairs');
    }
    session.send(untagged('ID ("name" "Letterbox" "vendor" "Letterbox")'));
    return ok('ID completed');
  },
};
