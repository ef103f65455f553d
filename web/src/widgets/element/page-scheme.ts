// The colour scheme the embedding page itself uses, written on its root element as
// data-attn-page-scheme="light|dark" for widgets.css: a widget paints its own background only
// where its scheme differs from the page's (a light-only author page and a reader who prefers
// dark, or a widget forced dark on a light page), and stays transparent, on the page's or a
// panel's background, where they agree. CSS cannot read a page's used scheme, hence this script.

const ATTRIBUTE = 'data-attn-page-scheme';
let watching = false;

/** The scheme a color-scheme value resolves to: "normal" and "light" are light; both follow the reader. */
export function usedScheme(colorScheme: string, readerPrefersDark: boolean): 'light' | 'dark' {
  const words = colorScheme.split(/\s+/);
  const light = words.includes('light'),
    dark = words.includes('dark');
  if (dark && light) return readerPrefersDark ? 'dark' : 'light';
  return dark ? 'dark' : 'light';
}

/** Writes the page's scheme on its root, and keeps it current (reader preference, the page's own theme switch). */
export function watchPageScheme(): void {
  if (watching || typeof window === 'undefined' || !window.matchMedia) return;
  watching = true;
  const root = document.documentElement;
  const dark = window.matchMedia('(prefers-color-scheme: dark)');
  const write = () => {
    // A page may state its schemes in <meta name="color-scheme"> instead of on its root.
    const declared = getComputedStyle(root).colorScheme || 'normal';
    const meta = document.querySelector<HTMLMetaElement>('meta[name="color-scheme"]')?.content;
    const scheme = usedScheme(declared === 'normal' && meta ? meta : declared, dark.matches);
    if (root.getAttribute(ATTRIBUTE) !== scheme) root.setAttribute(ATTRIBUTE, scheme);
  };
  write();
  dark.addEventListener('change', write);
  // A page that switches its theme does so on its root (a class, data-attn-theme, a style).
  new MutationObserver(write).observe(root, {
    attributes: true,
    attributeFilter: ['class', 'style', 'data-attn-theme'],
  });
}
