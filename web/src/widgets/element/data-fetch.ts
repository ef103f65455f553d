// Fetches an author's data file (a widget's `src`) and, when the request cannot be made at all,
// says why in the author's terms instead of the browser's "Failed to fetch":
// - in a framed widget (embed.html?widget=TAG), a file on another origin than the frame's: the
//   frame fetches under the asset host's policy and needs that origin's CORS header, neither in
//   the course's hands, so the rule is that a framed widget fetches data from its own origin only
//   (the JSON next to the widgets' files), or the widget goes on the page as an element;
// - on a page: its Content-Security-Policy refusing the file's origin (connect-src), the file's
//   origin sending no CORS header, or the file unreachable.
// The causes are found as explain.ts finds them: by the policy's violation events and an opaque
// (no-cors) request, not by engine-specific error texts.
import { violationsFor } from '../../host/explain';
import { AuthorError } from './contract';

/** Is this page a framed widget's (frame-page.ts says so)? */
let framed = false;

/** Marks this page as a framed widget's: its widgets' data may come from its own origin only. */
export function inFramedWidget(): void {
  framed = true;
}

/** The answer to `src` (relative to the page) for the `name` data; an AuthorError saying why when there is none. */
export async function fetchAuthorData(name: string, src: string): Promise<Response> {
  const url = new URL(src, document.baseURI);
  try {
    return await fetch(url);
  } catch {
    // The browser's error ("Failed to fetch", "NetworkError…") names no cause: find it.
    throw await whyNotFetched(name, url, src.slice(0, 80));
  }
}

async function whyNotFetched(name: string, url: URL, src: string): Promise<AuthorError> {
  const { origin } = url;
  const file = url.pathname.slice(url.pathname.lastIndexOf('/') + 1) || 'data.json';
  if (framed && origin !== location.origin)
    return new AuthorError(
      `${name} data: a framed widget may fetch its data only from its own origin, ${location.origin}, where the widgets' files are; ${url.href} is on another origin. Put ${file} next to the widgets' files (src=${file}), or put the widget on your page as an element with its data.`,
      { key: 'dataFramedOrigin', params: { name, url: url.href, origin: location.origin, file } },
    );
  if ((await violationsFor(['connect-src'], [origin])).length > 0)
    return new AuthorError(
      `${name} data: the page's Content-Security-Policy does not allow fetching ${url.href}. The page must add ${origin} to its connect-src.`,
      { key: 'dataPolicyRefused', params: { name, url: url.href, origin } },
    );
  try {
    await fetch(url, { mode: 'no-cors', cache: 'no-store' });
  } catch {
    return new AuthorError(`${name} data: ${url.href} could not be reached.`, {
      key: 'dataUnreachable',
      params: { name, url: url.href },
    });
  }
  return new AuthorError(
    `${name} data: ${origin} does not let this page fetch ${src} (it sends no Access-Control-Allow-Origin header). Its server must send one, or the file must be on this page's origin.`,
    { key: 'dataNoCors', params: { name, src, origin } },
  );
}
