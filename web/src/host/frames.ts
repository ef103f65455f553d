// attention-lab-frames.js: the script a page includes (one external file, so a strict
// Content-Security-Policy allows it) to use framed widgets, <iframe src=".../embed.html?widget=TAG">.
// It sizes each frame to the height its widget reports, and re-dispatches the widget's events on
// the <iframe> element as DOM events that bubble, with the widget's detail as it is:
//   frame.addEventListener('attn-quiz-answered', (event) => save(event.detail));
// A message counts only when it comes from the window of an <iframe> on this page and from that
// frame's own origin; anything else is ignored. The first height a frame posts is answered, so
// that the frame hides the scroll bar it no longer needs. The height a frame is given in the page
// (the guide's fixed heights) only reserves its place until its widget posts one: then the frame
// takes its content's height, whatever the author's content, also over a height the course's
// stylesheet gives iframes. Classic script: no import, no export at run time.
import { HOST_SOURCE, isFrameMessage } from './frame-protocol';

/** The frames told that they are sized (each once). */
const sized = new WeakSet<HTMLIFrameElement>();

addEventListener('message', (event: MessageEvent) => {
  if (!isFrameMessage(event.data)) return;
  const frame = [...document.querySelectorAll('iframe')].find((node) => node.contentWindow === event.source);
  if (!frame || !frame.src || event.origin !== new URL(frame.src, document.baseURI).origin) return;
  const message = event.data;
  if (message.type === 'event')
    return void frame.dispatchEvent(new CustomEvent(message.name, { detail: message.detail, bubbles: true }));
  if (!sized.has(frame)) {
    sized.add(frame);
    // Tells the frame that its height follows its content, so it needs no scroll bar.
    event.source?.postMessage({ source: HOST_SOURCE, type: 'sizing' }, { targetOrigin: event.origin });
  }
  const height = Math.ceil(message.height);
  frame.height = String(height);
  // Inline, so that no stylesheet's height wins; a border-box frame's height includes its own box.
  const box = getComputedStyle(frame);
  const own =
    box.boxSizing === 'border-box'
      ? ['borderTopWidth', 'borderBottomWidth', 'paddingTop', 'paddingBottom'].reduce(
          (sum, side) => sum + (parseFloat(box[side as 'paddingTop']) || 0),
          0,
        )
      : 0;
  frame.style.height = `${height + own}px`;
});
