import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { aes256KeyBytes } from '@letterbox/config';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A stored private key that does not open under the key given: another DKIM_KEY_ENCRYPTION_KEY, or altered. */
export class DkimKeyDecryptionError extends Error {
  constructor() {
    super('a DKIM private key does not decrypt under DKIM_KEY_ENCRYPTION_KEY: the setting is not the key it was stored under, or the stored key was altered');
  }
}

/**
 * Seals DKIM private keys for the database with AES-256-GCM: iv, tag and ciphertext in one
 * value. GCM's tag makes a wrong key or an altered row fail loudly instead of signing with garbage.
 */
export class DkimKeyCipher {
  private constructor(private readonly key: Buffer) {}

  /** From the DKIM_KEY_ENCRYPTION_KEY setting, which loadConfig has checked is 32 bytes. */
  static fromSetting(value: string): DkimKeyCipher {
    const key = aes256KeyBytes(value);
    if (!key) throw new Error('DKIM_KEY_ENCRYPTION_KEY must be 32 bytes, as 64 hex digits or base64');
    return new DkimKeyCipher(key);
  }

  encrypt(privateKeyDer: Buffer): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(privateKeyDer), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
  }

  decrypt(sealed: Buffer): Buffer {
    if (sealed.length <= IV_BYTES + TAG_BYTES) throw new DkimKeyDecryptionError();
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, IV_BYTES));
    decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    } catch {
      throw new DkimKeyDecryptionError();
    }
  }
}
