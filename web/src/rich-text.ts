// Renders the lesson's inline markup ($TeX$, `code`, **strong**, {live.number}) into DOM nodes.
// Text is only ever inserted as text nodes, never parsed as HTML: quiz or exercise data
// supplied by an embedding page cannot inject markup.
import katex from 'katex';
import { splitLive, fillLive, type LiveNumbers } from './format';

const INLINE = /(\$[^$]+\$|`[^`]+`|\*\*[^*]+\*\*)/;

export function renderTex(tex: string, displayMode = false): HTMLElement {
  const span = document.createElement(displayMode ? 'div' : 'span');
  // MathML output needs no stylesheet and no inline styles, so it works under a strict CSP.
  katex.render(tex, span, { output: 'mathml', displayMode, throwOnError: false });
  return span;
}

function appendLive(parent: Node, text: string, numbers: LiveNumbers): void {
  for (const piece of splitLive(text, numbers)) {
    if (!piece.key) {
      parent.appendChild(document.createTextNode(piece.text));
      continue;
    }
    const span = document.createElement('span');
    span.className = 'live';
    span.dataset.key = piece.key;
    if (piece.missing) span.dataset.missing = '';
    span.textContent = piece.text;
    parent.appendChild(span);
  }
}

export function renderRich(text: string, numbers: LiveNumbers = {}): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const part of text.split(INLINE)) {
    if (!part) continue;
    if (part.startsWith('$') && part.endsWith('$') && part.length > 2) {
      fragment.appendChild(renderTex(fillLive(part.slice(1, -1), numbers)));
    } else if (part.startsWith('`') && part.endsWith('`') && part.length > 2) {
      const code = document.createElement('code');
      code.textContent = part.slice(1, -1);
      fragment.appendChild(code);
    } else if (part.startsWith('**') && part.endsWith('**') && part.length > 4) {
      const strong = document.createElement('strong');
      strong.appendChild(renderRich(part.slice(2, -2), numbers));
      fragment.appendChild(strong);
    } else {
      appendLive(fragment, part, numbers);
    }
  }
  return fragment;
}
