// The ?theme= of one of this project's pages, and the check of a theme a widget or page is given.
import { THEMES } from './contract';

/** Is `value` a theme? Otherwise warns, naming `where`, and the caller ignores it. */
export function checkTheme(value: string, where: string): boolean {
  if ((THEMES as readonly string[]).includes(value)) return true;
  console.warn(`${where}: theme must be light, dark or auto, got "${value.slice(0, 40)}"; ignored`);
  return false;
}

/**
 * Forces the page's colour scheme from its URL's ?theme=light|dark|auto (index.html, embed.html),
 * as <html data-attn-theme>, which page.css and widgets.css follow.
 */
export function applyPageTheme(): void {
  const theme = new URLSearchParams(location.search).get('theme');
  if (theme === null || !checkTheme(theme, '?theme')) return;
  if (theme === 'auto') delete document.documentElement.dataset.attnTheme;
  else document.documentElement.dataset.attnTheme = theme;
}
