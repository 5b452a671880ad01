import type { DnsResolve } from '@letterbox/dns';
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
