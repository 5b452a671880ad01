/** A script Letterbox cannot take, at the line and column (from 1) where the problem starts. */
export class SieveScriptError extends Error {
  override readonly name = 'SieveScriptError';

  constructor(
    readonly line: number,
    readonly column: number,
    readonly problem: string,
  ) {
    super(`line ${line}, column ${column}: ${problem}`);
  }
}

/** Where a token starts in the script. */
export interface SourcePosition {
  line: number;
  column: number;
}

export function errorAt(position: SourcePosition, problem: string): SieveScriptError {
  return new SieveScriptError(position.line, position.column, problem);
}
