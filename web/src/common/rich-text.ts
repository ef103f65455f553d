// Renders inline markup ($TeX$, `code`, **strong**, {live.number}) into DOM nodes, for the
// lesson's prose and the texts of the quiz and the exercises alike. Text is only ever inserted as
// text nodes, never parsed as HTML: quiz or exercise data supplied by an embedding page cannot
// inject markup. KaTeX is loaded only where math is
// shown: await mathReady() before rendering, or useMath() it, to have formulas at once; a formula
// rendered before KaTeX has loaded shows its TeX until it has. Live numbers are written as the
// locale given writes them (a node filled later keeps that locale in data-locale).
import type Katex from 'katex';
import { formatNumber, splitLive, fillLiveTex, type LiveNumbers } from './live-format';

const INLINE = /(\$[^$]+\$|`[^`]+`|\*\*[^*]+\*\*)/;

let katex: typeof Katex | undefined;
let katexLoading: Promise<void> | undefined;

/** Hands over KaTeX imported statically (the lesson, all of whose sections show math). */
export function useMath(loaded: typeof Katex): void {
  katex = loaded;
  katexLoading = Promise.resolve();
}

/** Resolves once KaTeX (a chunk of its own) has loaded, or failed to: formulas then show their TeX. */
export function mathReady(): Promise<void> {
  katexLoading ??= import('katex').then(
    (loaded) => void (katex = loaded.default),
    () => void (katexLoading = undefined), // a later formula tries again
  );
  return katexLoading;
}

export function renderTex(tex: string, displayMode = false): HTMLElement {
  const span = document.createElement(displayMode ? 'div' : 'span');
  span.dir = 'ltr'; // a formula does not mirror in a right-to-left page
  // MathML output needs no stylesheet and no inline styles, so it works under a strict CSP.
  const render = (k: typeof Katex) => k.render(tex, span, { output: 'mathml', displayMode, throwOnError: false });
  if (katex) render(katex);
  else {
    span.textContent = tex;
    void mathReady().then(() => katex && render(katex)); // the TeX stays readable if KaTeX cannot load
  }
  return span;
}

/** TeX with live numbers in it: rendered now, and again by applyLiveNumbers() when they come. */
export function renderLiveTex(template: string, numbers: LiveNumbers, displayMode = false, locale = 'en'): HTMLElement {
  const tex = fillLiveTex(template, numbers, locale);
  const node = renderTex(tex, displayMode);
  if (tex !== template) {
    node.dataset.tex = template;
    if (locale !== 'en') node.dataset.locale = locale;
  }
  return node;
}

/** What filling the live numbers under root takes: one update per number or formula. */
function liveUpdates(root: ParentNode, numbers: LiveNumbers): (() => void)[] {
  const spans = [...root.querySelectorAll<HTMLElement>('.live[data-key]')].map((span) => () => {
    const value = numbers[span.dataset.key!];
    if (value === undefined) return;
    span.textContent = formatNumber(value, span.dataset.format, span.dataset.locale);
    delete span.dataset.missing;
  });
  const formulas = [...root.querySelectorAll<HTMLElement>('[data-tex]')].map((node) => () => {
    const fresh = renderLiveTex(node.dataset.tex!, numbers, node.localName === 'div', node.dataset.locale);
    fresh.className = node.className;
    node.replaceWith(fresh);
  });
  return [...spans, ...formulas];
}

/** Fills every live number under root (text and formulas) rendered before the numbers existed. */
export function applyLiveNumbers(root: ParentNode, numbers: LiveNumbers): void {
  for (const update of liveUpdates(root, numbers)) update();
}

/** applyLiveNumbers, `between()` awaited after each `sliceMs` of work, so that the page can paint and answer input. */
export async function applyLiveNumbersInParts(
  root: ParentNode,
  numbers: LiveNumbers,
  between: () => Promise<void>,
  sliceMs = 10,
): Promise<void> {
  let sliceStart = performance.now();
  for (const update of liveUpdates(root, numbers)) {
    update();
    if (performance.now() - sliceStart > sliceMs) {
      await between();
      sliceStart = performance.now();
    }
  }
}

function appendLive(parent: Node, text: string, numbers: LiveNumbers, locale: string): void {
  for (const piece of splitLive(text, numbers, locale)) {
    if (!piece.key) {
      parent.appendChild(document.createTextNode(piece.text));
      continue;
    }
    const span = document.createElement('span');
    span.className = 'live';
    span.dataset.key = piece.key;
    if (piece.format) span.dataset.format = piece.format;
    if (locale !== 'en') span.dataset.locale = locale;
    if (piece.missing) span.dataset.missing = '';
    span.textContent = piece.text;
    parent.appendChild(span);
  }
}

/** Inline markup as DOM; live numbers written as `locale` writes them. */
export function renderRich(text: string, numbers: LiveNumbers = {}, locale = 'en'): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const part of text.split(INLINE)) {
    if (!part) continue;
    if (part.startsWith('$') && part.endsWith('$') && part.length > 2) {
      fragment.appendChild(renderLiveTex(part.slice(1, -1), numbers, false, locale));
    } else if (part.startsWith('`') && part.endsWith('`') && part.length > 2) {
      const code = document.createElement('code');
      code.dir = 'ltr';
      code.textContent = part.slice(1, -1);
      fragment.appendChild(code);
    } else if (part.startsWith('**') && part.endsWith('**') && part.length > 4) {
      const strong = document.createElement('strong');
      strong.appendChild(renderRich(part.slice(2, -2), numbers, locale));
      fragment.appendChild(strong);
    } else {
      appendLive(fragment, part, numbers, locale);
    }
  }
  return fragment;
}
