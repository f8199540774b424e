import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { removeAccents, sanitizeSlug, sanitizeSlugQuery } from '../../src/text/slug.js';

describe('sanitizeSlug (save mode, common.md 9.8)', () => {
  it('reproduces the examples of common.md 9.8 and terms.md 1.7', () => {
    assert.equal(sanitizeSlug('My Event!'), 'my-event');
    assert.equal(sanitizeSlug('Jazz & Blues'), 'jazz-blues');
    assert.equal(sanitizeSlug('Café Concert'), 'cafe-concert');
    assert.equal(sanitizeSlug('v1.0 Launch'), 'v1-0-launch');
    assert.equal(sanitizeSlug('v1.0 Launch!'), 'v1-0-launch');
  });

  it('a name without any slug character sanitizes to an empty string', () => {
    assert.equal(sanitizeSlug('!!!'), '');
    assert.equal(sanitizeSlug('   '), '');
  });

  it('transliterates accented Latin letters and the special cases of the accent table', () => {
    assert.equal(sanitizeSlug('Straße'), 'strasse');
    assert.equal(sanitizeSlug('Æsir æble'), 'aesir-aeble');
    assert.equal(sanitizeSlug('Øl ø'), 'ol-o');
    assert.equal(sanitizeSlug('Œuvre œ'), 'oeuvre-oe');
    assert.equal(sanitizeSlug('đ ł þ ð Þ'), 'd-l-th-d-th');
    assert.equal(sanitizeSlug('Ça Ñandú Żółć Ștefan'), 'ca-nandu-zolc-stefan');
    assert.equal(sanitizeSlug('Tiếng Việt'), 'tieng-viet');
  });

  it('percent-encodes other scripts as lower-case UTF-8 octets without transliterating them', () => {
    assert.equal(sanitizeSlug('音楽'), '%e9%9f%b3%e6%a5%bd');
    assert.equal(sanitizeSlug('が'), '%e3%81%8c');
    assert.equal(sanitizeSlug('Ελλάδα'), '%ce%b5%ce%bb%ce%bb%ce%ac%ce%b4%ce%b1');
  });

  it('strips tags and removes entities', () => {
    assert.equal(sanitizeSlug('<b>Bold</b> <i>title</i>'), 'bold-title');
    assert.equal(sanitizeSlug('Jazz &amp; Blues'), 'jazz-blues');
    assert.equal(sanitizeSlug('Rock &#8217;n&#8217; Roll'), 'rock-n-roll');
  });

  it('keeps existing %XX octets and drops any other percent sign', () => {
    assert.equal(sanitizeSlug('50%20off'), '50%20off');
    assert.equal(sanitizeSlug('100% sure'), '100-sure');
    assert.equal(sanitizeSlug('%C3%A9t%C3%A9'), '%c3%a9t%c3%a9');
  });

  it('turns no-break spaces, dashes, typographic spaces and slashes into hyphens', () => {
    assert.equal(sanitizeSlug('a\u00a0b–c—d/e\u2009f'), 'a-b-c-d-e-f');
    assert.equal(sanitizeSlug('a&nbsp;b&#8211;c&mdash;d'), 'a-b-c-d');
  });

  it('drops typographic punctuation and maps × to x', () => {
    assert.equal(sanitizeSlug('¡Hola! ¿Qué? «Rock ’n’ Roll…» © ® ™ • 20°'), 'hola-que-rock-n-roll-20');
    assert.equal(sanitizeSlug('3×4'), '3x4');
    assert.equal(sanitizeSlug('soft\u00adhyphen zero\u200bwidth'), 'softhyphen-zerowidth');
  });

  it('collapses whitespace and hyphen runs and trims hyphens', () => {
    assert.equal(sanitizeSlug('  --Hello   ---  World--  '), 'hello-world');
    assert.equal(sanitizeSlug('snake_case stays'), 'snake_case-stays');
  });

  it('limits the result to 200 characters without splitting an encoded character', () => {
    assert.equal(sanitizeSlug('a'.repeat(250)), 'a'.repeat(200));
    const encoded = sanitizeSlug('音'.repeat(100));
    assert.equal(encoded.length, 198);
    assert.equal(encoded, '%e9%9f%b3'.repeat(22));
  });
});

describe('sanitizeSlugQuery (lookup mode, common.md 9.8)', () => {
  it('normalizes case, punctuation and whitespace like save mode', () => {
    assert.equal(sanitizeSlugQuery('My Event!'), 'my-event');
    assert.equal(sanitizeSlugQuery('v1.0 Launch'), 'v1-0-launch');
    assert.equal(sanitizeSlugQuery('音楽'), '%e9%9f%b3%e6%a5%bd');
  });

  it('does not transliterate, so an accented spelling does not find a transliterated slug', () => {
    assert.equal(sanitizeSlugQuery('Café Concert'), 'caf%c3%a9-concert');
    assert.notEqual(sanitizeSlugQuery('Café Concert'), sanitizeSlug('Café Concert'));
  });

  it('does not apply the save-mode dash and punctuation replacements', () => {
    assert.equal(sanitizeSlugQuery('a/b'), 'ab');
    assert.equal(sanitizeSlugQuery('3×4'), '3%c3%974');
    assert.equal(sanitizeSlugQuery('a—b'), 'a%e2%80%94b');
  });

  it('finds a stored slug from the slug itself', () => {
    for (const slug of ['my-event', 'cafe-concert', '%e9%9f%b3%e6%a5%bd', 'jazz-2']) {
      assert.equal(sanitizeSlugQuery(slug), slug);
    }
  });
});

describe('removeAccents', () => {
  it('leaves ASCII and non-Latin scripts untouched', () => {
    assert.equal(removeAccents('Plain ASCII!'), 'Plain ASCII!');
    assert.equal(removeAccents('音楽 がぎ Ελλάδα'), '音楽 がぎ Ελλάδα');
    assert.equal(removeAccents('Éé Üü Åå'), 'Ee Uu Aa');
  });
});
