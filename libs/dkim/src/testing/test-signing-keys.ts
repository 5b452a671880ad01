import { createPrivateKey } from 'node:crypto';
import { generateDkimKeyPair } from '../dkim-key-pair';
import type { DkimSigningKey } from '../dkim-signer';
import { dkimDnsName, dkimTxt } from '../dns-records';

/** An RSA and an Ed25519 key of the domain, and the records publishing them. */
export async function testSigningKeys(domain: string): Promise<{ keys: DkimSigningKey[]; records: Map<string, string> }> {
  const pairs = await Promise.all([generateDkimKeyPair('rsa-sha256'), generateDkimKeyPair('ed25519-sha256')]);
  const keys = pairs.map((pair) => ({
    domain,
    selector: pair.algorithm === 'rsa-sha256' ? 'testr' : 'teste',
    algorithm: pair.algorithm,
    privateKey: createPrivateKey({ key: pair.privateKeyDer, format: 'der', type: 'pkcs8' }),
  }));
  const records = new Map(pairs.map((pair, index) => [dkimDnsName(keys[index].selector, domain), dkimTxt(pair.algorithm, pair.publicKey)]));
  return { keys, records };
}
