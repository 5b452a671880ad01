export { compileSieve, MAX_SCRIPT_BYTES, MAX_REDIRECT_ADDRESSES } from './compile-sieve';
export { runSieve, SIEVE_RUN_BUDGET, type SieveMessage, type SieveOutcome, type SieveDestination, type SieveVacation } from './run-sieve';
export { SieveScriptError } from './sieve-error';
export type { SieveProgram, SieveFlag } from './sieve-program';
