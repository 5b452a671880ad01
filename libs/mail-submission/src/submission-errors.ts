/** The message names no sender in From: whose address it is cannot be checked. */
export class MissingFromError extends Error {
  constructor() {
    super('the message has no From address');
  }
}
