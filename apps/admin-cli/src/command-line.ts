import { parseArgs } from 'node:util';
import { COMMANDS, type Command } from './commands';
import { UsageError } from './usage-error';

export const USAGE = ['usage: npm run admin -- <command>', ...Object.values(COMMANDS).map((command) => `  ${command.usage}`)].join('\n');

/** The command the arguments name (by two words, or one), with its positionals and options checked; a UsageError otherwise. */
export function parseCommandLine(args: string[]): { command: Command; positionals: string[]; options: Record<string, string | boolean | undefined> } {
  const words = COMMANDS[args.slice(0, 2).join(' ')] ? 2 : 1;
  const command = COMMANDS[args.slice(0, words).join(' ')];
  if (!command) throw new UsageError(args.length === 0 ? 'no command given' : `unknown command: ${args.slice(0, 2).join(' ')}`);
  let parsed;
  try {
    parsed = parseArgs({
      args: args.slice(words),
      options: Object.fromEntries(Object.entries(command.options).map(([option, { type }]) => [option, { type }])),
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n  ${command.usage}`);
  }
  const missing = [
    ...command.positionals.slice(parsed.positionals.length).map((positional) => `<${positional}>`),
    ...Object.entries(command.options)
      .filter(([option, { required }]) => required && parsed.values[option] === undefined)
      .map(([option]) => `--${option}`),
  ];
  if (missing.length > 0) throw new UsageError(`missing ${missing.join(', ')}\n  ${command.usage}`);
  if (parsed.positionals.length > command.positionals.length) {
    throw new UsageError(`unexpected ${parsed.positionals.slice(command.positionals.length).join(' ')}\n  ${command.usage}`);
  }
  return { command, positionals: parsed.positionals, options: parsed.values };
}
