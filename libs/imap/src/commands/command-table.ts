import type { CommandHandler } from '../session/command-handler';
import { authenticate } from './authenticate';
import { capability } from './capability';
import { create } from './create';
import { deleteMailbox } from './delete';
import { enable } from './enable';
import { id } from './id';
import { idle } from './idle';
import { list } from './list';
import { login } from './login';
import { logout } from './logout';
import { namespace } from './namespace';
import { rename } from './rename';
import { noop } from './noop';
import { starttls } from './starttls';
import { status } from './status';
import { subscribe } from './subscribe';

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
  ['CREATE', create],
  ['RENAME', rename],
  ['DELETE', deleteMailbox],
]);
