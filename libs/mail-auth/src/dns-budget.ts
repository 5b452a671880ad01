/**
 * A DNS lookup as mailauth makes it, behaving like `dns.promises.resolve(name, rrtype)`:
 * TXT answers string[][], MX {exchange, priority}[], A/AAAA string[]; failures carry node's
 * codes ('ENOTFOUND', 'ENODATA', 'ETIMEOUT', 'ESERVFAIL').
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- its answer's shape depends on rrtype, as node's own resolve's does
export type DnsResolve = (name: string, rrtype: string) => Promise<any>;

/**
 * The resolver for one message's checks, which together may wait at most `budgetMs` for
 * DNS: a lookup still unanswered when the budget is spent fails, and every later one fails
 * at once, with ETIMEOUT, which the checks report as temperror. So a slow or hostile DNS
 * (an SPF record of includes each answered slowly) holds one message for the budget at most.
 */
export function budgetedResolver(resolve: DnsResolve, budgetMs: number): DnsResolve {
  const deadline = Date.now() + budgetMs;
  return (name, rrtype) => {
    const left = deadline - Date.now();
    if (left <= 0) return Promise.reject(budgetSpent(name));
    let timer: NodeJS.Timeout | undefined;
    const spent = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(budgetSpent(name)), left);
    });
    return Promise.race([resolve(name, rrtype), spent]).finally(() => clearTimeout(timer));
  };
}

function budgetSpent(name: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`DNS budget spent before ${name} was answered`), { code: 'ETIMEOUT' });
}
