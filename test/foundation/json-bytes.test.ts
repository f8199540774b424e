import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonBytes, textBytes } from '../../src/http/json-bytes.js';

/** What every JSON body must equal: the UTF-8 of `JSON.stringify`. */
const expected = (value: unknown) => Buffer.from(JSON.stringify(value) ?? 'null');

/** JSON values, and what `JSON.stringify` leaves out or converts on the way: undefined, functions, symbols, dates. */
const anything = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 1 }),
    fc.string({ unit: 'binary' }),
    fc.constantFrom(undefined, () => 1, Symbol('s'), new Date(Date.UTC(2026, 10, 28)), -0, NaN, Infinity),
    fc.array(tie('value'), { maxLength: 12 }),
    fc.dictionary(fc.string({ unit: 'binary', maxLength: 6 }), tie('value'), { maxKeys: 6 }),
  ),
})).value;

describe('jsonBytes', () => {
  it('writes the bytes of JSON.stringify for any value, whatever the depth', () => {
    fc.assert(
      fc.property(anything, (value) => {
        assert.deepEqual(jsonBytes(value), expected(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes a list of records beyond 128 KiB with characters of every UTF-8 length as one text would', () => {
    const title = 'Fête – 音楽祭 🎉 "quoted" \\ \u2028';
    const body = {
      events: Array.from({ length: 1500 }, (_, i) => ({ id: i, title, cost: undefined, tags: [{ name: title }] })),
      total: 1500,
      created: new Date(Date.UTC(2026, 0, 1)),
      skip: () => 0,
    };
    const bytes = jsonBytes(body);
    assert.ok(bytes.length > 128 * 1024);
    assert.deepEqual(bytes, expected(body));
    assert.deepEqual(JSON.parse(bytes.toString('utf8')), JSON.parse(JSON.stringify(body)));
  });

  it('keeps an object’s own toJSON and null prototypes as JSON.stringify does', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: [undefined, 2] });
    const own = { toJSON: () => ({ replaced: true }), hidden: 1 };
    assert.deepEqual(jsonBytes({ bare, own, list: [own] }), expected({ bare, own, list: [own] }));
  });
});

describe('textBytes', () => {
  it('gives text’s UTF-8 in a buffer of its exact length', () => {
    const text = 'a – 音 🎉';
    const bytes = textBytes(text);
    assert.equal(bytes.length, Buffer.byteLength(text));
    assert.equal(bytes.buffer.byteLength, bytes.length);
    assert.equal(bytes.toString('utf8'), text);
  });
});
