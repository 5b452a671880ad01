import { errorAt, SieveScriptError, type SourcePosition } from './sieve-error';
import { parseSieve, type Argument, type Command, type Test } from './sieve-parser';
import type { AddressPart, Match, SieveFlag, SieveProgram, SieveStatement, SieveTest } from './sieve-program';

/** A script larger than this is refused before it is read. */
export const MAX_SCRIPT_BYTES = 64 * 1024;

/** The extensions a script may require (RFC 5228 §3.2), and why the others it may name are refused. */
const SUPPORTED = new Set([
  'fileinto',
  'imap4flags',
  'envelope',
  'body',
  'relational',
  'copy',
  'reject',
  'vacation',
  'comparator-i;ascii-numeric',
  'comparator-i;octet',
  'comparator-i;ascii-casemap',
]);
const NOT_YET = new Set(['vacation-seconds', 'variables', 'date', 'regex', 'editheader', 'mailbox', 'include', 'enotify', 'ereject']);

const FLAGS: Record<string, SieveFlag> = { '\\seen': 'seen', '\\flagged': 'flagged' };
const RELATIONS = new Set(['gt', 'ge', 'lt', 'le', 'eq', 'ne']);
const COMPARATORS = new Set(['i;ascii-casemap', 'i;octet', 'i;ascii-numeric']);

/**
 * A Sieve script as Letterbox runs it, or a SieveScriptError at the line and column of its first
 * problem: a command or test it does not know, an extension used without `require` or not
 * supported, an argument missing or of the wrong kind, a flag other than \Seen and \Flagged.
 */
export function compileSieve(script: string): SieveProgram {
  if (Buffer.byteLength(script) > MAX_SCRIPT_BYTES) throw new SieveScriptError(1, 1, `the script is larger than ${MAX_SCRIPT_BYTES / 1024} KB`);
  const nul = script.indexOf('\u0000');
  if (nul >= 0) {
    const before = script.slice(0, nul).split('\n');
    throw new SieveScriptError(before.length, before[before.length - 1].length + 1, 'a NUL character');
  }
  const commands = parseSieve(script);
  const required = new Set<string>();
  const folders: SieveProgram['folders'] = [];
  const redirects: SieveProgram['redirects'] = [];
  let position = 0;
  for (; position < commands.length && commands[position].name === 'require'; position++) {
    const command = commands[position];
    const [names] = positional(command, 1);
    for (const name of strings(names, 'the extensions to require')) {
      const extension = name.toLowerCase();
      if (NOT_YET.has(extension)) throw errorAt(names, `the extension "${name}" is not available in Letterbox yet`);
      if (!SUPPORTED.has(extension)) throw errorAt(names, `the extension "${name}" is not supported`);
      required.add(extension);
    }
  }
  const context: Context = { required, folders, redirects };
  return { statements: block(commands.slice(position), context), folders, redirects };
}

interface Context {
  required: Set<string>;
  folders: SieveProgram['folders'];
  redirects: SieveProgram['redirects'];
}

function block(commands: Command[], context: Context): SieveStatement[] {
  const statements: SieveStatement[] = [];
  for (const command of commands) {
    if (command.name === 'elsif' || command.name === 'else') {
      const last = statements[statements.length - 1];
      if (last?.kind !== 'if' || last.branches[last.branches.length - 1].test === undefined) {
        throw errorAt(command.at, `${command.name} must follow if or elsif`);
      }
      last.branches.push(branch(command, context));
      continue;
    }
    statements.push(statement(command, context));
  }
  return statements;
}

function branch(command: Command, context: Context): { test?: SieveTest; body: SieveStatement[] } {
  if (!command.block) throw errorAt(command.at, `${command.name} needs a block ({ … })`);
  if (command.name === 'else') {
    if (command.tests.length > 0 || command.arguments.length > 0) throw errorAt(command.at, 'else takes no test');
    return { body: block(command.block, context) };
  }
  if (command.tests.length !== 1 || command.arguments.length > 0) throw errorAt(command.at, `${command.name} takes exactly one test`);
  return { test: test(command.tests[0], context), body: block(command.block, context) };
}

function statement(command: Command, context: Context): SieveStatement {
  if (command.name === 'if') return { kind: 'if', branches: [branch(command, context)] };
  if (command.block) throw errorAt(command.at, `${command.name} takes no block`);
  if (command.tests.length > 0) throw errorAt(command.tests[0].at, `${command.name} takes no test`);
  if (command.name === 'vacation') return vacation(command, context);
  const flags = { flags: { extension: 'imap4flags', takes: 'strings' } } as const;
  const copy = { copy: { extension: 'copy', takes: 'nothing' } } as const;
  const tagRules: TagRules = command.name === 'fileinto' ? { ...copy, ...flags } : command.name === 'redirect' ? copy : command.name === 'keep' ? flags : {};
  const tags = taggedArguments(command, context, tagRules);
  switch (command.name) {
    case 'require':
      throw errorAt(command.at, 'require must come before every other command');
    case 'stop':
    case 'discard':
      positional(command, 0, tags.rest);
      return { kind: command.name };
    case 'keep':
      positional(command, 0, tags.rest);
      return { kind: 'keep', ...flagsOf(tags) };
    case 'fileinto': {
      needs(context, command.at, 'fileinto');
      const [folderArgument] = positional(command, 1, tags.rest);
      const folder = single(folderArgument, 'the folder to file into');
      if (!context.folders.some((known) => known.name === folder)) context.folders.push({ name: folder, at: folderArgument });
      return { kind: 'fileinto', folder, copy: tags.given.copy !== undefined, ...flagsOf(tags), at: command.at };
    }
    case 'reject': {
      needs(context, command.at, 'reject');
      const [reason] = positional(command, 1, tags.rest);
      return { kind: 'reject', reason: single(reason, 'the reason') };
    }
    case 'setflag':
    case 'addflag':
    case 'removeflag': {
      needs(context, command.at, 'imap4flags');
      const [list] = positional(command, 1, tags.rest);
      return { kind: 'flags', change: command.name === 'setflag' ? 'set' : command.name === 'addflag' ? 'add' : 'remove', flags: flagList(list) };
    }
    case 'redirect': {
      const [addressArgument] = positional(command, 1, tags.rest);
      const address = redirectAddress(single(addressArgument, 'the address to redirect to'), addressArgument);
      if (!context.redirects.some((known) => known.address === address)) {
        if (context.redirects.length >= MAX_REDIRECT_ADDRESSES)
          throw errorAt(addressArgument, `a script redirects to at most ${MAX_REDIRECT_ADDRESSES} addresses`);
        context.redirects.push({ address, at: addressArgument });
      }
      return { kind: 'redirect', address, copy: tags.given.copy !== undefined };
    }
    default:
      throw errorAt(command.at, `unknown command "${command.name}"`);
  }
}

/** A script names at most this many addresses to redirect to: a rule forwards, it does not broadcast (RFC 5228 §4.2 asks for a limit). */
export const MAX_REDIRECT_ADDRESSES = 5;

/** A mailbox address, `local@domain`, as RFC 5228 §4.2 requires redirect's to be (a syntactically invalid one is an error). */
const ADDRESS = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** The address lower-case, its angle brackets and spaces gone; refused unless it is one mailbox. */
function redirectAddress(given: string, at: SourcePosition): string {
  const address = given
    .trim()
    .replace(/^<(.*)>$/, '$1')
    .toLowerCase();
  if (!ADDRESS.test(address) || address.includes('..') || address.startsWith('.')) throw errorAt(at, `"${given}" is not an e-mail address to redirect to`);
  return address;
}

/** RFC 5230's `:days`: at least one, and a sender is never answered less than a day apart; at most a year. */
const MAX_VACATION_DAYS = 365;

/** `vacation [:days n] [:subject s] [:from s] [:addresses list] [:handle s] reason` (RFC 5230); `:mime` is not taken. */
function vacation(command: Command, context: Context): SieveStatement {
  needs(context, command.at, 'vacation');
  if (command.block) throw errorAt(command.at, 'vacation takes no block');
  const tags = taggedArguments(command, context, {
    days: { takes: 'number' },
    subject: { takes: 'string' },
    from: { takes: 'string' },
    addresses: { takes: 'strings' },
    handle: { takes: 'string' },
    mime: { takes: 'nothing' },
  });
  if (tags.given.mime) throw errorAt(tags.given.mime, 'vacation :mime is not available in Letterbox yet; write the reason as text');
  const [reason] = positional(command, 1, tags.rest);
  const daysArgument = tags.given.days;
  const days = daysArgument?.kind === 'number' ? daysArgument.value : 7;
  if (days < 1 || days > MAX_VACATION_DAYS) throw errorAt(daysArgument ?? command.at, `:days must be 1 to ${MAX_VACATION_DAYS}`);
  return {
    kind: 'vacation',
    reason: single(reason, 'the reason'),
    days,
    ...(tags.given.subject ? { subject: single(tags.given.subject, 'the subject') } : {}),
    ...(tags.given.from ? { from: single(tags.given.from, 'the From address') } : {}),
    addresses: tags.given.addresses ? strings(tags.given.addresses, 'the addresses') : [],
  };
}

function test(node: Test, context: Context): SieveTest {
  switch (node.name) {
    case 'true':
    case 'false':
      positional(node, 0);
      return { kind: node.name };
    case 'not':
      if (node.tests.length !== 1 || node.arguments.length > 0) throw errorAt(node.at, 'not takes exactly one test');
      return { kind: 'not', test: test(node.tests[0], context) };
    case 'allof':
    case 'anyof':
      if (node.tests.length === 0 || node.arguments.length > 0) throw errorAt(node.at, `${node.name} takes a list of tests in ( )`);
      return { kind: node.name, tests: node.tests.map((inner) => test(inner, context)) };
    case 'exists': {
      const [headers] = positional(node, 1);
      return { kind: 'exists', headers: strings(headers, 'the header names') };
    }
    case 'size': {
      const tags = taggedArguments(node, context, { over: { takes: 'nothing' }, under: { takes: 'nothing' } });
      const [limit] = positional(node, 1, tags.rest);
      if ((tags.given.over === undefined) === (tags.given.under === undefined)) throw errorAt(node.at, 'size takes one of :over and :under');
      if (limit.kind !== 'number') throw errorAt(limit, 'size compares with a number, like 100K');
      return { kind: 'size', over: tags.given.over !== undefined, limit: limit.value };
    }
    case 'header':
    case 'address':
    case 'envelope':
    case 'body':
      return comparisonTest(node, context);
    case 'hasflag':
      throw errorAt(node.at, 'hasflag is not available in Letterbox yet');
    default:
      throw errorAt(node.at, `unknown test "${node.name}"`);
  }
}

function comparisonTest(node: Test, context: Context): SieveTest {
  if (node.name === 'envelope') needs(context, node.at, 'envelope');
  if (node.name === 'body') needs(context, node.at, 'body');
  const tags = taggedArguments(node, context, {
    comparator: { takes: 'string' },
    is: { takes: 'nothing' },
    contains: { takes: 'nothing' },
    matches: { takes: 'nothing' },
    value: { extension: 'relational', takes: 'string' },
    count: { extension: 'relational', takes: 'string' },
    ...(node.name === 'header' || node.name === 'body' ? {} : { all: { takes: 'nothing' }, localpart: { takes: 'nothing' }, domain: { takes: 'nothing' } }),
    ...(node.name === 'body' ? { text: { takes: 'nothing' } } : {}),
  });
  const match = matchOf(node, tags, context);
  const parts = (['all', 'localpart', 'domain'] as const).filter((part) => tags.given[part] !== undefined);
  if (parts.length > 1) throw errorAt(node.at, 'only one of :all, :localpart and :domain');
  const part: AddressPart = parts[0] ?? 'all';
  if (node.name === 'body') {
    const [keys] = positional(node, 1, tags.rest);
    return { kind: 'body', keys: strings(keys, 'the keys'), match };
  }
  const [names, keys] = positional(node, 2, tags.rest);
  if (node.name === 'header') return { kind: 'header', headers: strings(names, 'the header names'), keys: strings(keys, 'the keys'), match };
  if (node.name === 'address') return { kind: 'address', headers: strings(names, 'the header names'), part, keys: strings(keys, 'the keys'), match };
  const envelopeParts = strings(names, 'the envelope parts').map((name) => {
    const lower = name.toLowerCase();
    if (lower !== 'from' && lower !== 'to') throw errorAt(names, `envelope knows "from" and "to", not "${name}"`);
    return lower;
  });
  return { kind: 'envelope', parts: envelopeParts, part, keys: strings(keys, 'the keys'), match };
}

function matchOf(node: Test, tags: Tags, context: Context): Match {
  const types = (['is', 'contains', 'matches', 'value', 'count'] as const).filter((type) => tags.given[type] !== undefined);
  if (types.length > 1) throw errorAt(node.at, 'only one match type (:is, :contains, :matches, :value, :count)');
  const type = types[0] ?? 'is';
  const comparatorArgument = tags.given.comparator;
  const comparator = comparatorArgument ? single(comparatorArgument, 'the comparator').toLowerCase() : 'i;ascii-casemap';
  if (!COMPARATORS.has(comparator)) throw errorAt(comparatorArgument ?? node.at, `the comparator "${comparator}" is not supported`);
  if (comparator === 'i;ascii-numeric') needs(context, comparatorArgument ?? node.at, 'comparator-i;ascii-numeric');
  const relationArgument = type === 'value' || type === 'count' ? tags.given[type] : undefined;
  const relation = relationArgument ? single(relationArgument, 'the relation').toLowerCase() : undefined;
  if (relationArgument && !RELATIONS.has(relation ?? '')) throw errorAt(relationArgument, `the relation must be one of gt, ge, lt, le, eq, ne`);
  return { type, comparator: comparator as Match['comparator'], ...(relation ? { relation: relation as Match['relation'] } : {}) };
}

/** A command's or test's tags by name (with the value that follows each, for those that take one), and its other arguments. */
interface Tags {
  given: Partial<Record<string, Argument>>;
  rest: Argument[];
}

/** The tags a command or test may take: the extension each needs, and whether a value follows it. */
type TagRules = Record<string, { extension?: string; takes: 'nothing' | 'number' | 'string' | 'strings' }>;

function taggedArguments(node: Test, context: Context, rules: TagRules): Tags {
  const tags: Tags = { given: {}, rest: [] };
  const args = node.arguments;
  for (let index = 0; index < args.length; index++) {
    const argument = args[index];
    if (argument.kind !== 'tag') {
      tags.rest.push(argument);
      continue;
    }
    const rule = rules[argument.name];
    if (!rule) throw errorAt(argument, `${node.name} takes no :${argument.name}`);
    if (rule.extension) needs(context, argument, rule.extension);
    if (tags.given[argument.name] !== undefined) throw errorAt(argument, `:${argument.name} is given twice`);
    if (rule.takes === 'nothing') {
      tags.given[argument.name] = argument;
      continue;
    }
    const value = args[index + 1];
    if (rule.takes === 'number') {
      if (value?.kind !== 'number') throw errorAt(argument, `:${argument.name} must be followed by a number`);
      tags.given[argument.name] = value;
      index++;
      continue;
    }
    if (value?.kind !== 'strings' || (rule.takes === 'string' && value.list)) {
      throw errorAt(argument, `:${argument.name} must be followed by ${rule.takes === 'string' ? 'a string' : 'a string or a list of strings'}`);
    }
    tags.given[argument.name] = value;
    index++;
  }
  return tags;
}

function positional(node: Test, count: number, given: Argument[] = node.arguments): Argument[] {
  const tag = given.find((argument) => argument.kind === 'tag');
  if (tag && tag.kind === 'tag') throw errorAt(tag, `${node.name} takes no :${tag.name}`);
  if (given.length !== count) throw errorAt(given[count] ?? node.at, `${node.name} takes ${count === 0 ? 'no' : count} argument${count === 1 ? '' : 's'}`);
  return given;
}

function strings(argument: Argument, what: string): string[] {
  if (argument.kind !== 'strings') throw errorAt(argument, `${what} must be a string or a list of strings`);
  return argument.values;
}

function single(argument: Argument, what: string): string {
  if (argument.kind !== 'strings' || argument.list) throw errorAt(argument, `${what} must be one string`);
  return argument.values[0];
}

function flagsOf(tags: Tags): { flags?: SieveFlag[] } {
  return tags.given.flags ? { flags: flagList(tags.given.flags) } : {};
}

/** imap4flags' flags: strings, each of flags separated by spaces. */
function flagList(argument: Argument): SieveFlag[] {
  const names = strings(argument, 'the flags').flatMap((value) => value.split(/\s+/).filter(Boolean));
  return names.map((name) => {
    const flag = FLAGS[name.toLowerCase()];
    if (!flag) throw errorAt(argument, `only \\Seen and \\Flagged can be set, not "${name}"`);
    return flag;
  });
}

function needs(context: Context, at: SourcePosition, extension: string): void {
  if (!context.required.has(extension)) throw errorAt(at, `this needs require "${extension}" at the start of the script`);
}
