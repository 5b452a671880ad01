/** Thrown when a script's run has used its budget: it stops there, and the mail is kept. */
export class SieveBudgetExhausted extends Error {
  override readonly name = 'SieveBudgetExhausted';
}

/**
 * The work one run of a script may do on one message, in characters compared and tests
 * evaluated: anyone on the internet chooses the message, so however the script is written,
 * each run is bounded (lesson 9).
 */
export class SieveBudget {
  constructor(private left: number) {}

  spend(units: number): void {
    this.left -= units;
    if (this.left < 0) throw new SieveBudgetExhausted('the script used its budget of work for this message');
  }
}
