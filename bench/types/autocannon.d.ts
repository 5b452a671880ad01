/** The part of autocannon 9's API the harness uses; the package ships no types of its own. */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      /** Called before every request; what it returns is sent. */
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
    }

    interface Options {
      url: string;
      connections: number;
      /** Seconds. */
      duration: number;
      /** Requests to make before the run ends, whatever `duration` says. */
      amount?: number;
      /** Seconds a response may take before it counts as an error. */
      timeout?: number;
      headers?: Record<string, string>;
      requests?: Request[];
    }

    interface Result {
      /** Seconds. */
      duration: number;
      /** `total` is the number of responses. */
      requests: { total: number };
      /** `total` is the bytes of all responses. */
      throughput: { total: number };
      /** Socket errors, timeouts included. */
      errors: number;
      timeouts: number;
      non2xx: number;
      '2xx': number;
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
      on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTimeMs: number) => void): this;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
