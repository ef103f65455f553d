// attention-lab-frames.js: the script a page includes (one external file, so a strict
// Content-Security-Policy allows it) to use framed widgets, <iframe src=".../embed.html?widget=TAG">.
// It sizes each frame to the height its widget reports, and re-dispatches the widget's events on
// the <iframe> element as DOM events that bubble, with the widget's detail as it is:
//   frame.addEventListener('attn-quiz-answered', (event) => save(event.detail));
// A message counts only when it comes from the window of an <iframe> on this page and from that
// frame's own origin; anything else is ignored. Classic script: no import, no export at run time.
import { isFrameMessage } from './frame-protocol';

addEventListener('message', (event: MessageEvent) => {
  if (!isFrameMessage(event.data)) return;
  const frame = [...document.querySelectorAll('iframe')].find((node) => node.contentWindow === event.source);
  if (!frame || !frame.src || event.origin !== new URL(frame.src, document.baseURI).origin) return;
  const message = event.data;
  if (message.type === 'height') frame.height = String(Math.ceil(message.height));
  else frame.dispatchEvent(new CustomEvent(message.name, { detail: message.detail, bubbles: true }));
});
