// Text shown in Monaco's hovers, which render Markdown: a program's own words (an exception's
// message) or a shared link's (a breakpoint's condition) must read as text, never as a link, an
// image (which the page would fetch), HTML or a command. Every ASCII punctuation character, the
// only ones Markdown's syntax is made of, is escaped with a backslash (CommonMark lets any of them
// be), which also keeps bare URLs, `www.` and e-mail addresses from becoming links; newlines are
// kept as line breaks. Monaco is told the text is untrusted: no HTML, no command links, no icons.
// Bidirectional and invisible characters are written as escapes first (core/terminalText.ts).

import { visibleText } from '../core/terminalText';
import type { monaco } from './monaco';

const PUNCTUATION = /[!-/:-@[-`{-~]/g;

/** `text` escaped so that Markdown shows it as it is. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(PUNCTUATION, '\\$&')
    .split('\n')
    .join('\\\n');
}

/** A hover message that shows `text` as plain text, its invisible characters escaped. */
export function plainHover(text: string): monaco.IMarkdownString {
  return { value: escapeMarkdown(visibleText(text.replace(/\r\n?/g, '\n'))), isTrusted: false, supportHtml: false, supportThemeIcons: false };
}
