import { createHash } from 'node:crypto';

/**
 * xoshiro128** seeded through splitmix32 (or through sha256 for a text seed).
 * Generated mail must come out byte for byte the same on every run and machine,
 * so that tests can rebuild the exact bytes they expect; Math.random cannot give that.
 */
export class SeededRandom {
  private readonly state = new Uint32Array(4);

  /** A number seed is reduced to 32 bits; a text seed names an independent stream, e.g. one per attachment. */
  constructor(seed: number | string) {
    if (typeof seed === 'string') {
      const digest = createHash('sha256').update(seed).digest();
      for (let i = 0; i < 4; i++) this.state[i] = digest.readUInt32LE(i * 4);
    } else {
      let mixer = seed >>> 0;
      for (let i = 0; i < 4; i++) {
        mixer = (mixer + 0x9e3779b9) >>> 0;
        this.state[i] = splitmix32(mixer);
      }
    }
  }

  next32(): number {
    const s = this.state;
    const result = Math.imul(rotateLeft(Math.imul(s[1], 5), 7), 9) >>> 0;
    const shifted = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= shifted;
    s[3] = rotateLeft(s[3], 11);
    return result;
  }

  /** In [0, 1). */
  float(): number {
    return this.next32() / 0x1_0000_0000;
  }

  /** An integer in [min, max], both ends included. */
  between(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.float() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)];
  }

  bytes(length: number): Buffer {
    const out = Buffer.alloc(length);
    let offset = 0;
    for (; offset + 4 <= length; offset += 4) out.writeUInt32LE(this.next32(), offset);
    if (offset < length) {
      for (let word = this.next32(); offset < length; offset++, word >>>= 8) out[offset] = word & 0xff;
    }
    return out;
  }
}

function splitmix32(value: number): number {
  let z = value;
  z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
  z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
  return (z ^ (z >>> 15)) >>> 0;
}

function rotateLeft(value: number, bits: number): number {
  return (value << bits) | (value >>> (32 - bits));
}
