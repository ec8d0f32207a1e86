import { describe, expect, it } from 'vitest';
import { decodeEntities, htmlTitle, htmlToText } from '../../actors/adapters/web/html.ts';

describe('htmlToText', () => {
  it('drops scripts, styles and comments, even unclosed at the end of a truncated page', () => {
    expect(
      htmlToText(
        '<p>a</p><script>if (x < 1) { document.write("<p>b</p>") }</script><style>p{}</style><!-- c --><p>d</p>',
      ),
    ).toBe('a\n\nd');
    expect(htmlToText('<p>kept</p><script>var cut = "half')).toBe('kept');
    expect(htmlToText('<p>kept</p><!-- cut comment')).toBe('kept');
    expect(htmlToText('<p>kept</p><div class="cut')).toBe('kept');
  });

  it('removes tags whose attributes contain > and decodes entities after the tags are gone', () => {
    expect(htmlToText('<a title="x > y" href=\'/z\'>link</a> &lt;b&gt;bold&lt;/b&gt; &amp;amp;')).toBe(
      'link <b>bold</b> &amp;',
    );
  });

  it('turns blocks into paragraphs and list items, rows and breaks into lines', () => {
    expect(
      htmlToText(
        '<h2>Title</h2><ul><li>one</li><li>two</li></ul>line<br>next<table><tr><td>a</td><td>b</td></tr></table>',
      ),
    ).toBe('Title\n\none\ntwo\n\nline\nnext\n\na b');
  });
});

describe('entities and title', () => {
  it('decodes named and numeric references and leaves unknown ones', () => {
    expect(decodeEntities('&deg;C &#x3A9; &#937; &euro;5 &bogus; &#0; AT&T')).toBe('°C Ω Ω €5 &bogus; \uFFFD AT&T');
  });

  it('reads the title', () => {
    expect(htmlTitle('<html><head><title>\n  Spec &amp; notes </title></head>')).toBe('Spec & notes');
    expect(htmlTitle('<p>no title</p>')).toBeNull();
  });
});
