// ndb inside a course page: the <iframe> snippet "Copy embed code" copies, and the page's own
// reading of whether it is such an embed. The snippet points at the page as it is (the share link
// in its hash holds the program, call, input, breakpoints and position) with `embed` in its query:
// the embedded page runs the code at once, in a compact layout that fits the frame, and offers
// "Open in ndb" (the same link without `embed`). Only inside a frame: an `embed` link opened as a
// page of its own (someone sent it) asks before it runs, as any shared link does
// (embedRunsAtOnce).

/** The frame the snippet asks for; the embedded layout is made to fit it. */
export const EMBED_SIZE = { width: 700, height: 500 } as const;

/** Whether a page's query asks for the embedded layout (`?embed`, `?embed=1`). */
export function isEmbed(query: string): boolean {
  const value = new URLSearchParams(query).get('embed');
  return value !== null && value !== '0' && value !== 'false';
}

/** Whether the page's link runs without asking: an embed (`?embed`) inside a frame, where the
 * course page that frames it chose the code. `framed`: the page is not the top-level page
 * (`window.top !== window`). An embed link opened in a tab of its own is anyone's link: it asks. */
export function embedRunsAtOnce(query: string, framed: boolean): boolean {
  return framed && isEmbed(query);
}

/** The page's URL with `embed` in its query (other query options, e.g. `backend`, kept). */
export function embedUrl(href: string): string {
  const url = new URL(href);
  url.searchParams.set('embed', '1');
  return url.href;
}

/** The page's URL without `embed`: the full app on the same link ("Open in ndb"). */
export function fullAppUrl(href: string): string {
  const url = new URL(href);
  url.searchParams.delete('embed');
  return url.href;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The <iframe> for a course page, for the page at `href` (its hash holds the session). */
export function embedSnippet(href: string, title = 'ndb: step through a Python program'): string {
  const src = escapeAttribute(embedUrl(href));
  return (
    `<iframe src="${src}" width="${EMBED_SIZE.width}" height="${EMBED_SIZE.height}" ` +
    `title="${escapeAttribute(title)}" loading="lazy" ` +
    `style="border: 1px solid #d0d7de; border-radius: 6px; max-width: 100%;"></iframe>`
  );
}
