import type { CommandHandler } from '../session/command-handler';
import { append } from './append';
import { authenticate } from './authenticate';
import { capability } from './capability';
import { check } from './check';
import { close } from './close';
import { create } from './create';
import { deleteMailbox } from './delete';
import { copy } from './copy';
import { enable } from './enable';
import { expunge } from './expunge';
import { fetch } from './fetch';
import { id } from './id';
import { idle } from './idle';
import { list } from './list';
import { login } from './login';
import { logout } from './logout';
import { move } from './move';
import { namespace } from './namespace';
import { rename } from './rename';
import { noop } from './noop';
import { search } from './search';
import { select } from './select';
import { sort } from './sort';
import { starttls } from './starttls';
import { status } from './status';
import { store } from './store';
import { subscribe } from './subscribe';
import { thread } from './thread';
import { unselect } from './unselect';

/** Every command the server takes, by its upper-case name (`UID FETCH` for the UID ones). */
export const COMMANDS: ReadonlyMap<string, CommandHandler> = new Map([
  ['CAPABILITY', capability],
  ['NOOP', noop],
  ['LOGOUT', logout],
  ['ID', id],
  ['STARTTLS', starttls],
  ['LOGIN', login],
  ['AUTHENTICATE', authenticate],
  ['ENABLE', enable],
  ['NAMESPACE', namespace],
  ['LIST', list],
  ['LSUB', list],
  ['STATUS', status],
  ['SUBSCRIBE', subscribe],
  ['UNSUBSCRIBE', subscribe],
  ['IDLE', idle],
  ['SELECT', select],
  ['EXAMINE', select],
  ['CLOSE', close],
  ['UNSELECT', unselect],
  ['CHECK', check],
  ['FETCH', fetch],
  ['UID FETCH', fetch],
  ['CREATE', create],
  ['RENAME', rename],
  ['DELETE', deleteMailbox],
  ['STORE', store],
  ['UID STORE', store],
  ['COPY', copy],
  ['UID COPY', copy],
  ['MOVE', move],
  ['UID MOVE', move],
  ['EXPUNGE', expunge],
  ['UID EXPUNGE', expunge],
  ['SEARCH', search],
  ['UID SEARCH', search],
  ['SORT', sort],
  ['UID SORT', sort],
  ['THREAD', thread],
  ['UID THREAD', thread],
  ['APPEND', append],
]);
