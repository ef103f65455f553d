// The messages a framed widget (embed.html?widget=TAG) posts to the page that frames it, and the
// check the host side (frames.ts) applies to everything it receives:
//   {source: 'attention-lab', type: 'height', height}        the frame's content height, CSS px
//   {source: 'attention-lab', type: 'event', name, detail}   a widget event, detail as the element's
// and the one answer of the host side, to a frame's first height:
//   {source: 'attention-lab-host', type: 'sizing'}           the host sizes this frame to its content
export const MESSAGE_SOURCE = 'attention-lab';
export const HOST_SOURCE = 'attention-lab-host';

export type FrameMessage =
  | { source: typeof MESSAGE_SOURCE; type: 'height'; height: number }
  | { source: typeof MESSAGE_SOURCE; type: 'event'; name: string; detail: unknown };

/** Widget event names: attn- and lower-case words (what a host re-dispatches, nothing else). */
export const EVENT_NAME = /^attn-[a-z]+(?:-[a-z]+){0,4}$/;

/** Is `data` a well-formed message of a framed widget? */
export function isFrameMessage(data: unknown): data is FrameMessage {
  if (typeof data !== 'object' || data === null) return false;
  const m = data as Record<string, unknown>;
  if (m.source !== MESSAGE_SOURCE) return false;
  if (m.type === 'height')
    return typeof m.height === 'number' && Number.isFinite(m.height) && m.height >= 0 && m.height < 100000;
  return m.type === 'event' && typeof m.name === 'string' && EVENT_NAME.test(m.name);
}

/** Is `data` the host side's answer, saying it sizes the frame? */
export function isHostMessage(data: unknown): boolean {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as Record<string, unknown>).source === HOST_SOURCE &&
    (data as Record<string, unknown>).type === 'sizing'
  );
}
