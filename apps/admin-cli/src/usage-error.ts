/** The command line was not understood: what is wrong, and how the command is written. */
export class UsageError extends Error {}
