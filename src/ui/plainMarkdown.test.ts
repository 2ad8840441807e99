// Hover text is escaped so that Markdown shows it as it is (the browser test checks Monaco's own
// rendering: e2e/sandbox.test.mjs).
import { describe, expect, it } from 'vitest';
import { escapeMarkdown, plainHover } from './plainMarkdown';

/** What CommonMark shows for text made only of escapes and plain characters: each `\x` is `x`, a
 * backslash before a newline is a line break. */
function shown(markdown: string): string {
  return markdown.replace(/\\\n/g, '\n').replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

describe('escapeMarkdown', () => {
  const attacks = [
    '![s](http://127.0.0.1:4392/x.png?leak=1) [Open the fix](http://evil.example/)',
    '<img src=x onerror=alert(1)> <a href="http://x">x</a> &lt;b&gt;',
    'see www.example.com or me@example.com or https://example.com',
    '[cmd](command:workbench.action.openSettings) $(alert) `code` **bold** # title',
    'line one\nline two\r\nline three\\',
  ];

  it('leaves no Markdown syntax unescaped', () => {
    for (const text of attacks) {
      const md = escapeMarkdown(text);
      // every punctuation character is preceded by an (unescaped) backslash
      expect(md.replace(/\\[!-/:-@[-`{-~]/g, '').replace(/\\\n/g, '\n')).not.toMatch(/[!-/:-@[-`{-~]/);
    }
  });

  it('shows the text as it was', () => {
    for (const text of attacks) expect(shown(escapeMarkdown(text))).toBe(text.replace(/\r\n?/g, '\n'));
  });

  it('makes an untrusted hover message', () => {
    expect(plainHover('a [b](c)')).toEqual({ value: 'a \\[b\\]\\(c\\)', isTrusted: false, supportHtml: false, supportThemeIcons: false });
  });

  it('shows a bidirectional override as an escape, never applied', () => {
    expect(shown(plainHover('bad \u202evalue\r\nnext').value)).toBe('bad \\u202evalue\nnext');
  });
});
