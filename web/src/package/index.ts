// The npm package's entry (attention-lab.js in the package): registers every widget and links
// their stylesheet, which sits next to this file, into the page unless it is there already. One
// `import 'attention-lab'` is all a course built with a bundler needs. The address is written
// as `new URL('…', import.meta.url)` so that the course's bundler copies the stylesheet too.
import '../widgets/index';

function linkStylesheet(): void {
  const href = new URL(/* @vite-ignore */ 'attention-lab.css', import.meta.url).href;
  if ([...document.querySelectorAll<HTMLLinkElement>('link[rel~="stylesheet"]')].some((link) => link.href === href))
    return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  document.head.prepend(link); // first, so the page's own rules can override the widgets'
}

linkStylesheet();
export { overrideMessages } from '../common/messages';
export { setProgressStore, type ProgressStore } from '../widgets/element/progress-store';
