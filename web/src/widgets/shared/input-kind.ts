// The kind of pointer the reader is using, so that a widget's hints say "tap" to a touch screen
// and "click", "Tab" and "Enter" to a mouse and keyboard: at first the device's main pointer
// (the `pointer: coarse` media query), then the kind of the last pointer pressed anywhere on the
// page (a laptop with a touch screen switches as the reader does). Keys are not counted: the
// on-screen keyboard of a touch screen sends them too.

/** 'touch' for a finger or a pen, 'fine' for a mouse (and the keyboard beside it). */
export type InputKind = 'touch' | 'fine';

let last: InputKind | undefined;
const listeners = new Set<(kind: InputKind) => void>();

/** The kind of pointer in use now. */
export function inputKind(): InputKind {
  return last ?? (matchMedia('(pointer: coarse)').matches ? 'touch' : 'fine');
}

function pressed(event: PointerEvent): void {
  const kind: InputKind = event.pointerType === 'mouse' ? 'fine' : 'touch';
  if (kind === inputKind()) return void (last = kind);
  last = kind;
  for (const listener of listeners) listener(kind);
}

/** Calls listener(kind) whenever the kind in use changes; returns the function that stops it. */
export function onInputKind(listener: (kind: InputKind) => void): () => void {
  if (listeners.size === 0) document.addEventListener('pointerdown', pressed, { capture: true, passive: true });
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) document.removeEventListener('pointerdown', pressed, { capture: true });
  };
}
