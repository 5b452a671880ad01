export { DkimKeyCipher, DkimKeyDecryptionError } from './dkim-key-cipher';
export { DKIM_ALGORITHMS, generateDkimKeyPair, type DkimAlgorithm, type DkimKeyPair } from './dkim-key-pair';
export { dkimDnsName, dkimTxt, dmarcRecord, spfRecord, type TxtRecord } from './dns-records';
export { publishedDkimRecords } from './published-dkim-records';
export { publishedDkimSource } from './published-dkim-source';
export { DkimSigningKeys } from './dkim-signing-keys';
export { dkimSignatureHeaders, SIGNED_HEADERS, type DkimSigningKey } from './dkim-signer';
