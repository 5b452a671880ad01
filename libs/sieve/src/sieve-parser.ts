import { errorAt, type SourcePosition } from './sieve-error';
import { tokenize, type Token } from './sieve-lexer';

export type Argument = SourcePosition &
  ({ kind: 'tag'; name: string } | { kind: 'number'; value: number } | { kind: 'strings'; values: string[]; list: boolean });

/** A test: its name, its arguments, and the tests it takes (`not`, `allof`, `anyof`). */
export interface Test {
  name: string;
  at: SourcePosition;
  arguments: Argument[];
  tests: Test[];
}

/** A command: a test's parts, and the block of commands it opens (`if`, `elsif`, `else`). */
export interface Command extends Test {
  block?: Command[];
}

/** Blocks and tests nested deeper than this are refused: a script's shape is bounded, whoever wrote it. */
export const MAX_NESTING = 24;

/**
 * A script's commands as RFC 5228 §8 writes its grammar, from its tokens: nothing is known
 * here of what a command means (sieve-script does that), only of its shape.
 */
export function parseSieve(script: string): Command[] {
  const parser = new Parser(tokenize(script));
  const commands = parser.commands(0);
  parser.expectEnd();
  return commands;
}

class Parser {
  private index = 0;

  constructor(private readonly tokens: Token[]) {}

  commands(depth: number): Command[] {
    const commands: Command[] = [];
    for (let token = this.peek(); token?.kind === 'identifier'; token = this.peek()) commands.push(this.command(depth));
    return commands;
  }

  expectEnd(): void {
    const token = this.peek();
    if (token) throw errorAt(token, `expected a command, found ${describe(token)}`);
  }

  private command(depth: number): Command {
    const { name, at, arguments: args, tests } = this.test(depth);
    const next = this.next(`";" or "{" after ${name}`);
    if (next.kind === 'punctuation' && next.text === ';') return { name, at, arguments: args, tests };
    if (next.kind === 'punctuation' && next.text === '{') {
      if (depth + 1 > MAX_NESTING) throw errorAt(next, `blocks are nested more than ${MAX_NESTING} deep`);
      const block = this.commands(depth + 1);
      this.punctuation('}', `"}" to close the block of ${name}`);
      return { name, at, arguments: args, tests, block };
    }
    throw errorAt(next, `expected ";" or "{" after ${name}, found ${describe(next)}`);
  }

  private test(depth: number): Test {
    if (depth > MAX_NESTING) throw errorAt(this.peek() ?? { line: 0, column: 0 }, `tests are nested more than ${MAX_NESTING} deep`);
    const token = this.next('a test');
    if (token.kind !== 'identifier') throw errorAt(token, `expected a name, found ${describe(token)}`);
    const args: Argument[] = [];
    for (;;) {
      const next = this.peek();
      if (!next) break;
      if (next.kind === 'tag') {
        this.index++;
        args.push({ line: next.line, column: next.column, kind: 'tag', name: next.text });
      } else if (next.kind === 'number') {
        this.index++;
        args.push({ line: next.line, column: next.column, kind: 'number', value: next.value });
      } else if (next.kind === 'string') {
        this.index++;
        args.push({ line: next.line, column: next.column, kind: 'strings', values: [next.value], list: false });
      } else if (next.kind === 'punctuation' && next.text === '[') {
        args.push(this.stringList());
      } else {
        break;
      }
    }
    const tests: Test[] = [];
    const next = this.peek();
    if (next?.kind === 'identifier') {
      tests.push(this.test(depth + 1));
    } else if (next?.kind === 'punctuation' && next.text === '(') {
      this.index++;
      do tests.push(this.test(depth + 1));
      while (this.comma());
      this.punctuation(')', '")" to close the list of tests');
    }
    return { name: token.text, at: { line: token.line, column: token.column }, arguments: args, tests };
  }

  private stringList(): Argument {
    const open = this.next('[');
    const values: string[] = [];
    do {
      const token = this.next('a string');
      if (token.kind !== 'string') throw errorAt(token, `expected a string in the list, found ${describe(token)}`);
      values.push(token.value);
    } while (this.comma());
    this.punctuation(']', '"]" to close the list of strings');
    return { line: open.line, column: open.column, kind: 'strings', values, list: true };
  }

  private comma(): boolean {
    const token = this.peek();
    if (token?.kind === 'punctuation' && token.text === ',') {
      this.index++;
      return true;
    }
    return false;
  }

  private punctuation(text: string, wanted: string): void {
    const token = this.next(wanted);
    if (token.kind !== 'punctuation' || token.text !== text) throw errorAt(token, `expected ${wanted}, found ${describe(token)}`);
  }

  private peek(): Token | undefined {
    return this.tokens[this.index];
  }

  private next(wanted: string): Token {
    const token = this.tokens[this.index];
    if (!token) {
      const last = this.tokens[this.tokens.length - 1];
      throw errorAt(last ?? { line: 1, column: 1 }, `the script ends where ${wanted} was expected`);
    }
    this.index++;
    return token;
  }
}

function describe(token: Token): string {
  switch (token.kind) {
    case 'identifier':
      return `"${token.text}"`;
    case 'tag':
      return `":${token.text}"`;
    case 'number':
      return `the number ${token.value}`;
    case 'string':
      return 'a string';
    case 'punctuation':
      return `"${token.text}"`;
  }
}
