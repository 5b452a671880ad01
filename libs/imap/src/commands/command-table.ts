import type { CommandHandler } from '../session/command-handler';
import { authenticate } from './authenticate';
import { capability } from './capability';
import { check } from './check';
import { close } from './close';
import { enable } from './enable';
import { fetch } from './fetch';
import { id } from './id';
import { idle } from './idle';
import { list } from './list';
import { login } from './login';
import { logout } from './logout';
import { namespace } from './namespace';
import { noop } from './noop';
import { select } from './select';
import { starttls } from './starttls';
import { status } from './status';
import { subscribe } from './subscribe';
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
]);
