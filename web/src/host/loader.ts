// attention-lab-loader.js: the script a course page includes to use the widgets from any host.
// A classic script, so it runs even where the module cannot: it loads attention-lab.js from next
// to itself, and when that fails (an asset host that sends no CORS header, a policy that refuses
// the host, a missing file) every attention-lab element on the page says why in its place, and
// the console says what the page or the asset host must allow. No import or export at run time.
import { MESSAGES, explainLoad, logOnce, showInPlace } from './explain';

const script = document.currentScript as HTMLScriptElement | null;
const bundle = new URL('attention-lab.js', script?.src || location.href).href;

/** The attention-lab elements on the page that never became widgets. */
function stranded(): Element[] {
  return [...document.querySelectorAll('*')].filter(
    (node) => node.localName.startsWith('attn-') && !customElements.get(node.localName),
  );
}

import(/* @vite-ignore */ bundle).catch(async (error: unknown) => {
  const reason =
    (await explainLoad(bundle).catch(() => undefined)) ??
    MESSAGES.other(`${bundle} did not load (${error instanceof Error ? error.message : String(error)})`);
  logOnce(reason, error);
  const show = () => stranded().forEach((widget) => showInPlace(widget, reason));
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', show);
  else show();
});
