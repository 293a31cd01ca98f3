/**
 * Cassandra's partition token: Murmur3Partitioner's token of a partition key's bytes, the first 64 bits of
 * MurmurHash3 x64_128 (seed 0) as Cassandra's MurmurHash.hash3_x64_128 computes them (its tail bytes are
 * sign-extended, unlike the reference C code), read as a signed long, with Long.MIN_VALUE taken to
 * Long.MAX_VALUE. Pure arithmetic on bigints; knows nothing of tables.
 */
const MASK = (1n << 64n) - 1n;
const C1 = 0x87c37b91114253d5n;
const C2 = 0x4cf5ad432745937fn;
const MIN_LONG = -(1n << 63n);
const MAX_LONG = (1n << 63n) - 1n;

const mul = (a: bigint, b: bigint): bigint => (a * b) & MASK;
const rotl = (x: bigint, r: bigint): bigint => ((x << r) | (x >> (64n - r))) & MASK;

function fmix(k: bigint): bigint {
  k ^= k >> 33n;
  k = mul(k, 0xff51afd7ed558ccdn);
  k ^= k >> 33n;
  k = mul(k, 0xc4ceb9fe1a85ec53n);
  k ^= k >> 33n;
  return k;
}

/** A little-endian 64-bit block (bytes masked, as Cassandra's getBlock). */
function block(bytes: Uint8Array, at: number): bigint {
  let v = 0n;
  for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(bytes[at + i]!);
  return v;
}

/** A tail byte as Java's `(long) byteBuffer.get(i)`: sign-extended to 64 bits. */
const signed = (byte: number): bigint => BigInt.asUintN(64, BigInt((byte << 24) >> 24));

/** The signed 64-bit Murmur3Partitioner token of a partition key's serialized bytes. */
export function murmur3Token(bytes: Uint8Array): bigint {
  let h1 = 0n;
  let h2 = 0n;
  const blocks = bytes.length >> 4;
  for (let i = 0; i < blocks; i++) {
    let k1 = block(bytes, i * 16);
    let k2 = block(bytes, i * 16 + 8);
    k1 = mul(rotl(mul(k1, C1), 31n), C2);
    h1 ^= k1;
    h1 = (mul(rotl(h1, 27n) + h2, 5n) + 0x52dce729n) & MASK;
    k2 = mul(rotl(mul(k2, C2), 33n), C1);
    h2 ^= k2;
    h2 = (mul(rotl(h2, 31n) + h1, 5n) + 0x38495ab5n) & MASK;
  }
  const tail = blocks * 16;
  const rest = bytes.length & 15;
  let k1 = 0n;
  let k2 = 0n;
  for (let i = rest - 1; i >= 8; i--) k2 ^= (signed(bytes[tail + i]!) << BigInt((i - 8) * 8)) & MASK;
  if (rest > 8) h2 ^= mul(rotl(mul(k2, C2), 33n), C1);
  for (let i = Math.min(rest, 8) - 1; i >= 0; i--) k1 ^= (signed(bytes[tail + i]!) << BigInt(i * 8)) & MASK;
  if (rest > 0) h1 ^= mul(rotl(mul(k1, C1), 31n), C2);
  const length = BigInt(bytes.length);
  h1 ^= length;
  h2 ^= length;
  h1 = (h1 + h2) & MASK;
  h2 = (h2 + h1) & MASK;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h1 = (h1 + h2) & MASK;
  const token = BigInt.asIntN(64, h1);
  return token === MIN_LONG ? MAX_LONG : token;
}
