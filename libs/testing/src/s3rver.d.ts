/** The part of s3rver 3's API the tests use; the package ships no types of its own. */
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    /** 0: any free port, which run() resolves. */
    port?: number;
    silent?: boolean;
    /** Where buckets and objects are kept, as files. */
    directory: string;
    configureBuckets?: { name: string }[];
  }

  class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }

  export default S3rver;
}
