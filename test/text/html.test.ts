import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  autop,
  convertInvalidEntities,
  plainText,
  sanitizeInline,
  sanitizePost,
  termDescription,
  termName,
} from '../../src/text/html.js';

describe('sanitizeInline (titles and names, common.md 10.2)', () => {
  it('keeps plain text and trims it', () => {
    assert.equal(sanitizeInline('  Event 01  '), 'Event 01');
    assert.equal(sanitizeInline("Rock 'n' Roll..."), "Rock 'n' Roll...");
  });

  it('keeps the inline allow-list with its attributes', () => {
    const html =
      '<a href="https://example.com/" title="t">a</a> <abbr title="x">b</abbr> <acronym title="y">c</acronym> ' +
      '<b>d</b> <blockquote cite="https://q/">e</blockquote> <cite>f</cite> <code>g</code> ' +
      '<del datetime="2025-01-01">h</del> <em>i</em> <i>j</i> <q cite="https://q/">k</q> <s>l</s> ' +
      '<strike>m</strike> <strong>n</strong>';
    assert.equal(sanitizeInline(html), html);
  });

  it('removes other tags and attributes, and unsafe URLs', () => {
    assert.equal(sanitizeInline('<p class="x">Para</p> <span style="color:red">span</span>'), 'Para span');
    assert.equal(sanitizeInline('<a href="javascript:alert(1)" onclick="x()">x</a>'), '<a>x</a>');
    assert.equal(sanitizeInline('<script>alert(1)</script>Title'), 'Title');
  });

  it('encodes a bare ampersand and angle bracket as HTML text', () => {
    assert.equal(sanitizeInline('Tom & Jerry'), 'Tom &amp; Jerry');
    assert.equal(sanitizeInline('1 < 2'), '1 &lt; 2');
  });
});

describe('text without markup characters', () => {
  // Quotes, controls, whitespace, unpaired surrogates, non-Latin and astral characters: what
  // sanitize-html gives back unchanged, so both functions return it without parsing.
  const pieces = [
    'a',
    ' ',
    '\n',
    '\r',
    '\t',
    '"',
    "'",
    '\u0000',
    '\u0007',
    '\u00a0',
    'é',
    '😀',
    '\ud800',
    '\u2028',
    '=',
    '/',
    '#x41;',
    '`',
    '\ufeff',
  ];
  const texts = Array.from({ length: 500 }, (_, i) =>
    Array.from({ length: i % 17 }, (_, j) => pieces[(i * 7 + j * 13) % pieces.length]).join(''),
  );

  it('comes back as it was (trimmed for titles)', () => {
    for (const text of texts) {
      assert.equal(sanitizePost(text), text);
      assert.equal(sanitizeInline(text), text.trim());
    }
  });

  it('is still encoded once it holds any of & < >', () => {
    for (const text of texts) {
      assert.equal(sanitizePost(`${text}>`), `${text}&gt;`);
      assert.equal(sanitizeInline(`x${text}&x`), `x${text}&amp;x`.trim());
      assert.equal(sanitizePost(`<b>${text}</b>`), `<b>${text}</b>`);
    }
  });
});

describe('sanitizePost (descriptions and excerpts, common.md 10.2)', () => {
  it('keeps text, headings, lists, tables, links, images and media', () => {
    const html =
      '<h2 id="h">Title</h2><p class="lead" align="center">Text <a href="https://e.com/" target="_blank">link</a></p>' +
      '<ul><li>a</li></ul><ol start="2"><li>b</li></ol>' +
      '<table><thead><tr><th>h</th></tr></thead><tbody><tr><td colspan="2">c</td></tr></tbody></table>' +
      '<img src="https://e.com/a.png" alt="a" width="10" /><video src="https://e.com/v.mp4" controls></video>' +
      '<blockquote cite="https://q/">q</blockquote><figure><figcaption>cap</figcaption></figure>';
    assert.equal(sanitizePost(html), html);
  });

  it('keeps global title, lang, dir, role, aria-* and data-* attributes', () => {
    const html = '<div title="t" lang="fr" dir="rtl" role="note" aria-label="l" data-id="7">x</div>';
    assert.equal(sanitizePost(html), html);
  });

  it('removes script, style elements, iframes, objects, embeds and form controls', () => {
    assert.equal(
      sanitizePost(
        '<p>a</p><script>bad()</script><style>p{}</style><iframe src="https://e.com/"></iframe>' +
          '<object data="x"></object><embed src="x" /><form action="x"><input name="q" /></form>',
      ),
      '<p>a</p>',
    );
  });

  it('removes event handler attributes and unsafe URL protocols', () => {
    assert.equal(sanitizePost('<p onclick="x()">a</p>'), '<p>a</p>');
    assert.equal(sanitizePost('<a href="javascript:alert(1)">a</a>'), '<a>a</a>');
    assert.equal(sanitizePost('<a href="data:text/html,x">a</a>'), '<a>a</a>');
    for (const url of ['mailto:a@b.c', 'tel:+123', 'webcal://e.com/c.ics', 'ftp://e.com/f', 'urn:isbn:1']) {
      assert.equal(sanitizePost(`<a href="${url}">a</a>`), `<a href="${url}">a</a>`);
    }
  });

  it('filters CSS to safe properties and values', () => {
    assert.equal(
      sanitizePost(
        '<p style="color: red; position: fixed; background: url(https://e.com/x.png); font-weight: bold">a</p>',
      ),
      '<p style="color:red;font-weight:bold">a</p>',
    );
  });

  it('converts invalid numeric entities 128-159 to their proper characters', () => {
    assert.equal(sanitizePost('&#128; &#150;'), '€ –');
  });
});

describe('convertInvalidEntities', () => {
  it('maps Windows-1252 code points and leaves unmapped ones alone', () => {
    assert.equal(convertInvalidEntities('&#128;&#129;&#146;&#151;&#160;'), '&#8364;&#129;&#8217;&#8212;&#160;');
  });
});

describe('plainText (venue/organizer text meta, common.md 10.2)', () => {
  it('strips tags and collapses whitespace', () => {
    assert.equal(plainText('  <b>Main</b>   St\n\t5  '), 'Main St 5');
    assert.equal(plainText('<script>alert(1)</script>Main'), 'Main');
  });

  it('turns a lone < into &lt;', () => {
    assert.equal(plainText('5 < 6'), '5 &lt; 6');
    assert.equal(plainText('a <b'), 'a &lt;b');
  });

  it('removes percent-encoded octets', () => {
    assert.equal(plainText('100%20Main %41St'), '100Main St');
    assert.equal(plainText('50% off'), '50% off');
  });

  it('removes invalid characters', () => {
    assert.equal(plainText('a\ud800b\ufffdc'), 'abc');
  });

  it('keeps ordinary text as is', () => {
    assert.equal(plainText('+1 (555) 010-0199'), '+1 (555) 010-0199');
    assert.equal(plainText('Rock & Roll'), 'Rock & Roll');
  });
});

describe('termName and termDescription (terms.md 1.7)', () => {
  it('a name is plain text with & < > encoded once', () => {
    assert.equal(termName('Rock & Roll'), 'Rock &amp; Roll');
    assert.equal(termName('Rock &amp; Roll'), 'Rock &amp; Roll');
    assert.equal(termName('  <i>Jazz</i>\n  "Live"  '), 'Jazz "Live"');
    assert.equal(termName('a < b'), 'a &lt; b');
    assert.equal(termName('<p></p> '), '');
  });

  it('a description keeps inline tags, removes others with their text kept, and is not trimmed', () => {
    assert.equal(termDescription(' <p>Para <em>e</em></p> <script>x()</script> '), ' Para <em>e</em> x() ');
    assert.equal(termDescription(' '), ' ');
  });
});

describe('autop (common.md 10.1, 10.3)', () => {
  it('reproduces the examples of common.md 10.1', () => {
    assert.equal(autop('Event 01 description'), '<p>Event 01 description</p>');
    assert.equal(autop('Line one\nLine two'), '<p>Line one<br />\nLine two</p>');
    assert.equal(autop('A\n\nB'), '<p>A</p>\n<p>B</p>');
  });

  it('returns an empty string for empty or blank text', () => {
    assert.equal(autop(''), '');
    assert.equal(autop(' \n\t\n '), '');
  });

  it('treats CRLF like LF and several blank lines like one', () => {
    assert.equal(autop('A\r\n\r\nB\r\nC'), '<p>A</p>\n<p>B<br />\nC</p>');
    assert.equal(autop('\nA\n\n\n\nB\n'), '<p>A</p>\n<p>B</p>');
  });

  it('does not wrap blocks that already are block elements', () => {
    assert.equal(autop('<p>Already</p>\n\nText'), '<p>Already</p>\n<p>Text</p>');
    assert.equal(autop('<ul>\n<li>a</li>\n</ul>'), '<ul>\n<li>a</li>\n</ul>');
    assert.equal(autop('<h2>Head</h2>\n\nBody'), '<h2>Head</h2>\n<p>Body</p>');
  });

  it('wraps inline markup and leaves pre content untouched', () => {
    assert.equal(autop('<strong>Bold</strong> text'), '<p><strong>Bold</strong> text</p>');
    assert.equal(autop('<pre>a\n\nb</pre>\n\nc'), '<pre>a\n\nb</pre>\n<p>c</p>');
  });

  it('keeps shortcodes and block comments as text', () => {
    assert.equal(autop('[gallery ids="1"]'), '<p>[gallery ids="1"]</p>');
  });
});
