import { untagged } from '../protocol/response-format';
import { noMore } from '../protocol/tokens';
import { HIERARCHY_DELIMITER } from '../mailboxes/imap-mailboxes';
import { ok, type CommandHandler } from '../session/command-handler';
import { SIGNED_IN } from '../session/session-state';

/** NAMESPACE (RFC 2342): one personal namespace, no prefix; nothing shared. */
export const namespace: CommandHandler = {
  states: SIGNED_IN,
  run: async ({ args, session }) => {
    noMore(args, 0);
    session.send(untagged(`NAMESPACE (("" "${HIERARCHY_DELIMITER}")) NIL NIL`));
    return ok('NAMESPACE completed');
  },
};
