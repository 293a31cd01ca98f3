/**
 * The checksum framing of truth records (storage/record-checksum.ts): a sealed record opens to its payload,
 * a changed byte or a record under another key does not, and records written before checksums open as
 * they are (text never starts with 0xFF; a vector's values are a multiple of 4 bytes).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { isSealed, loadRecordChecksum, openRecord, sealRecord } from '../../src/storage/record-checksum.js';

beforeAll(() => loadRecordChecksum());

const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('utf8');

describe('record checksums', () => {
  it('a sealed record opens to its payload', () => {
    const sealed = sealRecord('doc:000001\u0000sa', '{"_id":"a","n":1}');
    expect(isSealed('doc:000001\u0000sa', sealed)).toBe(true);
    const opened = openRecord('doc:000001\u0000sa', sealed);
    expect(opened.ok && text(opened.payload)).toBe('{"_id":"a","n":1}');
  });

  it('every changed byte of a sealed record is found', () => {
    const key = 'doc:000001\u0000sa';
    const sealed = sealRecord(key, '{"_id":"a","text":"hello world"}');
    for (let i = 0; i < sealed.length; i++) {
      for (const flip of [0x01, 0x80, 0xff]) {
        const damaged = Uint8Array.from(sealed);
        damaged[i]! ^= flip;
        expect(openRecord(key, damaged)).toMatchObject({ ok: false });
      }
    }
  });

  it('a record moved under another key fails', () => {
    const sealed = sealRecord('vval:000001\u000000000001', new Uint8Array(16).fill(7));
    expect(openRecord('vval:000001\u000000000002', sealed)).toMatchObject({ ok: false });
  });

  it('records written before checksums open as they are', () => {
    const body = Buffer.from('{"_id":"a"}');
    expect(openRecord('doc:000001\u0000sa', body)).toEqual({ ok: true, payload: body, sealed: false });
    const floats = new Uint8Array(new Float32Array([Number.NaN, 1, 2, 3]).buffer);
    floats[3] = 0xff; // an unsealed vector may start with 0xFF: its length tells
    floats[0] = 0xff;
    expect(openRecord('vval:000001\u000000000001', floats)).toMatchObject({ ok: true, sealed: false });
    expect(openRecord('vval:000001\u000000000001', floats.subarray(0, 15))).toMatchObject({ ok: false });
  });

  it('sealed vector values are checked, and open to the same bytes', () => {
    const key = 'vval:000001\u000000000001';
    const values = new Uint8Array(new Float32Array([0.5, -0.25, 3, 4]).buffer);
    const sealed = sealRecord(key, values);
    const opened = openRecord(key, sealed);
    expect(opened.ok && [...opened.payload]).toEqual([...values]);
    const damaged = Uint8Array.from(sealed);
    damaged[9]! ^= 0x10;
    expect(openRecord(key, damaged)).toMatchObject({ ok: false, reason: expect.stringMatching(/checksum/) });
  });
});
