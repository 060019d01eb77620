// Rendering a content item's body (src/campus/render-items.ts): Slate's wrappers per class,
// Markdown to HTML, Text escaped with line breaks, and every class sanitized against the usual
// attacks (script, event handlers, javascript: URLs, frames from unknown hosts).
import { describe, expect, it } from 'vitest';
import { decodeData, embedHtml, markdownHtml, mediaHtml, renderItem, sanitizeRich, textHtml } from '../../src/campus/render-items.ts';

const item = (kind: string, Data: unknown, ID = 7) => ({ ID, Class: `Emergence\\CMS\\Item\\${kind}`, Data });
// Executable markup: a script element, an event-handler attribute, a URL attribute with a script
// scheme. Escaped text that merely spells these (a Text item's `&lt;script&gt;`) is harmless.
const ATTACK = /<script|<[^>]*\son\w+\s*=|<[^>]*\s(?:href|src|style)\s*=\s*["']?[^"'>]*(?:javascript|vbscript|data):/i;

describe('renderItem', () => {
  it('wraps each class as Slate does', () => {
    expect(renderItem(item('Markdown', 'hi'))).toBe('<div class="content-item content-markdown" data-itemId="7"><p>hi</p>\n</div>');
    expect(renderItem(item('Text', 'hi'))).toBe('<div class="content-item content-text" id="contentItem-7">hi</div>');
    expect(renderItem(item('RichText', '<p>hi</p>'))).toBe('<div class="content-item content-richtext" id="contentItem-7"><p>hi</p></div>');
    expect(renderItem(item('Embed', '<p>hi</p>'))).toBe('<div class="content-item content-embed" id="contentItem-7"><p>hi</p></div>');
    // A Media item renders its media, or nothing when the media is gone; an Album (not offered) nothing.
    const media = new Map([[3, { ID: 3, Class: 'PDFMedia', Caption: 'Syllabus' }]]);
    expect(renderItem(item('Media', { MediaID: 3 }), media)).toContain('class="media-link pdf-link"');
    expect(renderItem(item('Media', { MediaID: 4 }), media)).toBe('');
    expect(renderItem(item('Album', { Title: 'x' }))).toBe('');
  });

  it('renders Markdown (GFM: tables, fenced code)', () => {
    const html = markdownHtml('# Title\n\n*em* and **strong**\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nlet x = 1 < 2;\n```\n\n[site](https://example.org)');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<em>em</em> and <strong>strong</strong>');
    expect(html).toContain('<td>1</td>');
    expect(html).toContain('<code class="language-js">let x = 1 &lt; 2;');
    expect(html).toContain('<a href="https://example.org" rel="noopener noreferrer nofollow">site</a>');
  });

  it("escapes Text and keeps its line breaks (PHP's nl2br(htmlspecialchars()))", () => {
    expect(textHtml('a <b>&</b> "q" \'s\'\nnext')).toBe('a &lt;b&gt;&amp;&lt;/b&gt; &quot;q&quot; &#039;s&#039;<br />\nnext');
    expect(textHtml('<script>alert(1)</script>')).not.toContain('<script');
  });

  it('strips script, event handlers and javascript: URLs from every class', () => {
    const attacks = [
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '<a href="javascript:alert(1)">x</a>',
      '<a href="JaVaScRiPt:alert(1)">x</a>',
      '<a href="&#106;avascript:alert(1)">x</a>',
      '<a href="vbscript:x">x</a>',
      '<p onclick="alert(1)" style="background:url(javascript:x)">x</p>',
      '<svg onload=alert(1)></svg>',
      '<img src="data:text/html;base64,PHNjcmlwdD4=">',
      '<iframe src="javascript:alert(1)"></iframe>',
    ];
    for (const attack of attacks) {
      for (const kind of ['Markdown', 'RichText', 'Embed', 'Text']) {
        const html = renderItem(item(kind, attack));
        expect(html, `${kind}: ${attack}`).not.toMatch(ATTACK);
      }
      expect(renderItem(item('Markdown', `[x](javascript:alert(1)) ${attack}`))).not.toMatch(ATTACK);
    }
    // Markup that is safe survives.
    expect(sanitizeRich('<p>ok <a href="/blog/x">in site</a> <img src="https://x.org/a.png" alt="a"></p>')).toBe(
      '<p>ok <a href="/blog/x" rel="noopener noreferrer nofollow">in site</a> <img src="https://x.org/a.png" alt="a" /></p>',
    );
  });

  it('allows frames only in Embed, only over https from known hosts', () => {
    const youtube = '<iframe src="https://www.youtube.com/embed/abc" width="560" height="315" allowfullscreen onload="x()"></iframe>';
    expect(embedHtml(youtube)).toBe('<iframe src="https://www.youtube.com/embed/abc" width="560" height="315" allowfullscreen></iframe>');
    expect(embedHtml('<iframe src="https://evil.example/x"></iframe>')).toBe('<iframe></iframe>');
    expect(embedHtml('<iframe src="http://www.youtube.com/embed/abc"></iframe>')).toBe('<iframe></iframe>');
    expect(embedHtml('<iframe src="//www.youtube.com/embed/abc"></iframe>')).toBe('<iframe></iframe>');
    // RichText and Markdown never frame anything.
    expect(renderItem(item('RichText', youtube))).not.toContain('<iframe');
    expect(renderItem(item('Markdown', youtube))).not.toContain('<iframe');
    // A bare URL is a link.
    expect(embedHtml(' https://example.org/v?a=1&b=2 ')).toBe('<a href="https://example.org/v?a=1&amp;b=2" rel="noopener noreferrer nofollow">https://example.org/v?a=1&amp;b=2</a>');
    expect(embedHtml('javascript:alert(1)')).not.toMatch(ATTACK);
  });

  it('escapes a media caption and decodes stored Data', () => {
    expect(mediaHtml({ ID: 5, Class: 'PhotoMedia', Caption: '"><script>x</script>' })).toBe(
      '<a href="/media/open/5" title="&quot;&gt;&lt;script&gt;x&lt;/script&gt;" class="media-link image-link"><img src="/thumbnail/5/400x400" alt="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"></a>',
    );
    expect(decodeData('"# hi"')).toBe('# hi');
    expect(decodeData('{"MediaID":3}')).toEqual({ MediaID: 3 });
    expect(decodeData('not json')).toBe('not json');
  });
});
