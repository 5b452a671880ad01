export { readTlsKeyPair, watchTlsKeyPair, type TlsKeyPair, type TlsKeyPairFiles, type TlsKeyPairWatch } from './tls-key-pair';
export { tlsKeyPairOf, type TlsKeyPairSettings } from './tls-key-pair-settings';
export { SmtpListeners, implicitTlsTwin } from './smtp-listeners';
