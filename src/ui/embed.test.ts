// The embed snippet: an iframe of the same link with `embed` in its query, safe to paste as HTML.

import { describe, expect, it } from 'vitest';
import { embedRunsAtOnce, embedSnippet, embedUrl, fullAppUrl, isEmbed } from './embed';

const PAGE = 'https://example.org/ndb/?backend=wasm#code=H4sI&call=f(1)&in=a%26b&pos=3';

describe('embed', () => {
  it('reads ?embed from the query', () => {
    expect(isEmbed('?embed')).toBe(true);
    expect(isEmbed('?backend=wasm&embed=1')).toBe(true);
    expect(isEmbed('?embed=0')).toBe(false);
    expect(isEmbed('')).toBe(false);
  });

  it("runs its link at once only inside a frame: opened as a page of its own it asks first", () => {
    expect(embedRunsAtOnce('?embed=1', true)).toBe(true);
    expect(embedRunsAtOnce('?embed=1', false)).toBe(false);
    expect(embedRunsAtOnce('?backend=wasm&embed', false)).toBe(false);
    expect(embedRunsAtOnce('', true)).toBe(false);
  });

  it('points the frame at the same link, with embed added and the hash kept', () => {
    const url = embedUrl(PAGE);
    expect(url).toBe('https://example.org/ndb/?backend=wasm&embed=1#code=H4sI&call=f(1)&in=a%26b&pos=3');
    expect(fullAppUrl(url)).toBe(PAGE);
  });

  it('writes an iframe of 700×500 whose src is escaped for HTML', () => {
    const html = embedSnippet(PAGE);
    expect(html).toMatch(/^<iframe src="[^"<>]+" width="700" height="500" title="[^"]+"/);
    expect(html).toContain('embed=1#code=H4sI&amp;call=f(1)&amp;in=a%26b&amp;pos=3');
    expect(html).not.toMatch(/&(?!amp;)[a-z]+=/);
    expect(embedSnippet('https://x.org/#a="><script>', 'a "b"')).not.toMatch(/"><script>|"b"/);
    expect(html.endsWith('></iframe>')).toBe(true);
  });
});
