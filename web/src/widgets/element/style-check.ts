// Whether the widgets' stylesheet applies to a widget, checked after it draws: the stylesheet sets
// --attn-stylesheet on every widget (widgets.css), so a widget without it is drawn unstyled, its
// stylesheet refused by the page's policy (a style-src that leaves its host out) or not loaded
// (missing, not linked). The widget then says so in place, above its content, and keeps working;
// the console says it once. A stylesheet still loading is given a moment first.
import { languageOf } from '../../common/language';
import { messagesIn } from '../../common/messages';

const MARK = '--attn-stylesheet';
const WAIT_MS = [100, 400, 1000, 2000];
let logged = false;

const styled = (widget: Element) => getComputedStyle(widget).getPropertyValue(MARK).trim() !== '';

/** Says in `widget` that it has no styles, when the widgets' stylesheet has not applied to it within a few seconds. */
export async function checkStylesheet(widget: HTMLElement): Promise<void> {
  for (const ms of WAIT_MS) {
    if (styled(widget) || !widget.isConnected) return;
    await new Promise((ok) => setTimeout(ok, ms));
  }
  if (styled(widget) || !widget.isConnected || widget.querySelector(':scope > .attn-style-note')) return;
  const { default: common } = await import('attn-messages:common');
  const messages = await messagesIn(languageOf(widget), common);
  if (!logged) {
    logged = true;
    console.warn(`attention-lab: ${common.en.stylesheetMissing({})}`);
  }
  const note = document.createElement('p');
  note.className = 'attn-style-note';
  note.setAttribute('role', 'status');
  note.textContent = messages.text('stylesheetMissing');
  widget.prepend(note);
}
