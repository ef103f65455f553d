// A widget that could not start says why in its own place, and the console says it too. What
// failed to load (the core's WebAssembly, a chunk of the bundle) is diagnosed by explain.ts and
// answered with what the page or the asset host must allow; any other error (an author's bad
// data, a refused attribute) is shown as it is. The widget says it in its language (the failure
// catalog), the console in English.
import coreWasmUrl from '../generated/attention_core.wasm?url';
import { languageOf } from '../common/language';
import { messagesIn, type Messages } from '../common/messages';
import { MESSAGES, explainLoad, logOnce, reasonOf, showInPlace, webAssemblyRefused } from './explain';
import failureMessages from 'attn-messages:failure';

/** The failure catalog, for a widget that says a reason (a Worker that did not start) itself. */
export { failureMessages };

/** A reason explain.ts made, in the language of `messages` (which must hold the failure catalog); other text as it is. */
export function reasonText(reason: string, messages: Messages): string {
  const said = reasonOf(reason);
  return said ? messages.text(said.key, said.params) : reason;
}

/**
 * Did this error come from loading code or WebAssembly (a failed import, a refused or aborted
 * module), rather than from the widget's own checks? Those throw plain Errors.
 */
function isLoadFailure(error: unknown): boolean {
  if (typeof WebAssembly === 'undefined') return true;
  return (
    error instanceof TypeError ||
    error instanceof WebAssembly.CompileError ||
    error instanceof WebAssembly.LinkError ||
    error instanceof WebAssembly.RuntimeError ||
    (error instanceof Error && /^Aborted\(/.test(error.message))
  );
}

/** Why the widgets cannot start on this page, when loading is what failed; undefined otherwise. */
async function explainStart(error: unknown): Promise<string | undefined> {
  if (!isLoadFailure(error)) return undefined;
  if (typeof WebAssembly === 'undefined') return MESSAGES.noWebAssembly();
  if (await webAssemblyRefused()) return MESSAGES.wasmRefused();
  // The address a failed import names (Chromium and Firefox say it), else the core's .wasm:
  // either way a file on the asset host, whose answer says what is wrong.
  const named = error instanceof Error ? error.message.match(/https?:\/\/\S+/)?.[0] : undefined;
  return explainLoad(named ?? new URL(coreWasmUrl, import.meta.url).href);
}

/** Shows in place of `widget` why it could not start, and logs it. */
export async function showFailure(widget: HTMLElement, error: unknown): Promise<void> {
  const reason = await explainStart(error).catch(() => undefined);
  const message = reason ?? MESSAGES.other(error instanceof Error ? error.message : String(error));
  const messages = await messagesIn(languageOf(widget), failureMessages).catch(() => undefined);
  showInPlace(widget, messages ? reasonText(message, messages) : message);
  if (reason) logOnce(reason, error);
  else console.warn(`${widget.localName}:`, error);
}
