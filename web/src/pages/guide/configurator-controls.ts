// The configurator's controls (configurator.ts): one per attribute, built from the attribute's
// declaration in the widget's contract and, for an attribute of the core's, from the core's field
// (range, default, choices): a number field, a select of the allowed values (of the divisors of
// another field, for a field that must divide it), a checkbox for a boolean, a text field for the
// rest. Each control reads its text with the widget's own parser, so a value the widget would
// refuse is marked at the control in the widget's own words.
import type { Configs, FieldSpec } from '../../core';
import { SHIPPED, LANGUAGE_NAMES } from '../../common/language';
import type { Messages } from '../../common/messages';
import {
  AuthorError,
  acceptedField,
  defaultText,
  defaultValue,
  formatValue,
  isCore,
  valueSaid,
  type AttributeSpec,
  type Said,
} from '../../widgets/element/contract';
import { authorErrorText, el, readAttribute } from '../../widgets/element/base';

/** One attribute's control: its row on the form, and what it says the attribute should be. */
export interface Control {
  spec: AttributeSpec;
  row: HTMLElement;
  field: HTMLInputElement | HTMLSelectElement;
  /**
   * The attribute's text to write, null when it is the default (or not set), or the AuthorError
   * the widget would show for it.
   */
  read(): string | null | AuthorError;
  /** Marks the control with the widget's words for its error, or clears the mark (null). */
  mark(error: AuthorError | null): void;
  /** Called after any control changed, with the others' texts (a field that divides another follows it). */
  follow?(texts: ReadonlyMap<string, string | null>): void;
}

/** The field a core attribute must divide (FieldSpec.divides: the key of the same config, "" for none), if any. */
export function dividesKey(spec: AttributeSpec, configs: Configs): string | undefined {
  if (!isCore(spec)) return undefined;
  const field = acceptedField(spec, configs) as FieldSpec & { divides?: string };
  return field.kind === 'integer' && field.divides ? field.divides : undefined;
}

/** The divisors of `n` in [min, max]. */
export function divisorsOf(n: number, min: number, max: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1).filter((d) => n % d === 0 && d >= min && d <= max);
}

/** A message of `messages` with its arguments, those that are messages said first (as a widget says them). */
function said(messages: Messages, what: Said): string {
  const parts = Object.entries(what.parts ?? {}).map(([name, part]) => [name, said(messages, part)]);
  return messages.text(what.key, { ...what.params, ...Object.fromEntries(parts) });
}

/**
 * The control of `spec` for the widget `tag`. `messages` holds the configurator's catalog and
 * the common one (what a value must be, the widget's errors); `contractSpecs` are the widget's
 * attributes (a field that divides another finds that one's attribute among them).
 */
export function buildControl(
  tag: string,
  spec: AttributeSpec,
  configs: Configs,
  messages: Messages,
  contractSpecs: readonly AttributeSpec[],
): Control {
  const id = `configurator-${spec.name}`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const fallback = defaultText(spec, configs);
  const label = el('label', { for: id }, el('code', {}, spec.name));
  const hint = el('p', { class: 'configurator-hint', id: hintId });
  const error = el('p', { class: 'configurator-error', id: errorId, hidden: '' });
  const row = el('div', { class: 'configurator-row', 'data-attribute': spec.name });

  const parse = (text: string): string | null | AuthorError => {
    let value: unknown;
    try {
      value = readAttribute(spec, text, configs);
    } catch (refused) {
      return refused as AuthorError;
    }
    const written = formatValue(value);
    return fallback !== undefined && written === fallback ? null : written;
  };

  let field: HTMLInputElement | HTMLSelectElement;
  let read: () => string | null | AuthorError;
  let follow: Control['follow'];
  const expected = said(messages, valueSaid(spec, configs));
  hint.textContent =
    fallback === undefined || fallback === ''
      ? messages.text('hintNoDefault', { expected })
      : messages.text('hintDefault', { expected, default: fallback });

  const select = (values: readonly string[], blank: string | undefined) => {
    const node = el('select', { id });
    const options = [
      ...(blank === undefined ? [] : [el('option', { value: '' }, blank)]),
      ...values.map((v) =>
        el('option', { value: v }, v === fallback ? messages.text('optionDefault', { value: v }) : v),
      ),
    ];
    node.replaceChildren(...options);
    node.value = fallback !== undefined && values.includes(fallback) ? fallback : '';
    return node;
  };

  const divides = dividesKey(spec, configs);
  if (spec.name === 'lang' && !isCore(spec)) {
    field = el('select', { id });
    field.replaceChildren(
      el('option', { value: '' }, messages.text('pageLanguage')),
      ...SHIPPED.map((language) => el('option', { value: language, lang: language }, LANGUAGE_NAMES[language])),
    );
    hint.textContent = messages.text('hintLanguage');
    read = () => (field.value === '' ? null : field.value);
  } else if (isCore(spec) && divides !== undefined) {
    // Only the divisors of the field it divides: that field's attribute where the widget has one, else the core's default.
    const f = acceptedField(spec, configs);
    const other = contractSpecs.find((s) => isCore(s) && s.core.config === spec.core.config && s.core.key === divides);
    const otherDefault = (configs[spec.core.config].defaults as unknown as Record<string, number>)[divides];
    const node = el('select', { id });
    field = node;
    follow = (texts) => {
      const written = other ? texts.get(other.name) : null;
      const size = written ? Number(written) : otherDefault;
      const choices = divisorsOf(size, f.min, f.max).map(String);
      // The value kept while it still divides, else the default, else the first divisor (written
      // out, the default not dividing); nothing to pick only when no divisor is in range.
      const kept = node.value;
      node.replaceChildren(...select(choices, choices.length ? undefined : messages.text('notSet')).children);
      node.value = [kept, fallback ?? '', choices[0] ?? ''].find((v) => choices.includes(v)) ?? '';
      hint.textContent = messages.text('hintDivides', {
        // the attribute that sets it, else the core's name for it on the command line (d-model)
        other: other?.name ?? configs[spec.core.config].fields.find((g) => g.key === divides)?.flag ?? divides,
        size,
        default: fallback ?? '',
      });
    };
    follow(new Map());
    read = () => (node.value === '' ? null : parse(node.value));
  } else if (
    (isCore(spec) && acceptedField(spec, configs).kind === 'choice') ||
    (!isCore(spec) && spec.type === 'enum')
  ) {
    const values = isCore(spec) ? acceptedField(spec, configs).choices : spec.values!.map(String);
    const hasDefault = fallback !== undefined && values.includes(fallback);
    field = select(values, hasDefault ? undefined : messages.text('notSet'));
    read = () => (field.value === '' ? null : parse(field.value));
  } else if (isCore(spec) && acceptedField(spec, configs).kind === 'boolean') {
    const on = defaultValue(spec, configs) === true;
    const box = el('input', { id, type: 'checkbox' });
    box.checked = on;
    field = box;
    hint.textContent = messages.text('hintBoolean', { default: String(on) });
    // HTML's way: present without a value is true; false where the default is true is written "false".
    read = () => (box.checked === on ? null : box.checked ? '' : 'false');
    row.classList.add('configurator-check');
  } else if (isCore(spec) && ['integer', 'seed', 'number'].includes(acceptedField(spec, configs).kind)) {
    const f = acceptedField(spec, configs);
    const input = el('input', {
      id,
      type: 'number',
      step: f.kind === 'number' ? 'any' : '1',
      placeholder: fallback ?? '',
    });
    if (Number.isFinite(f.min) && !f.openMin) input.min = String(f.min);
    if (Number.isFinite(f.max) && !f.openMax) input.max = String(f.max);
    field = input;
    // A number field the browser cannot read gives ''; the widget would be given that text too.
    read = () => (input.value === '' && !input.validity.badInput ? null : parse(input.value));
  } else if (!isCore(spec) && spec.type === 'number') {
    const input = el('input', { id, type: 'number', step: 'any', placeholder: fallback ?? '' });
    if (spec.min !== undefined) input.min = String(spec.min);
    if (spec.max !== undefined) input.max = String(spec.max);
    field = input;
    read = () => (input.value === '' && !input.validity.badInput ? null : parse(input.value));
  } else {
    // Text, addresses, lists and points: checked as typed by the widget's parser (a pattern
    // attribute would need the contract's patterns rewritten for the v flag).
    const input = el('input', {
      id,
      type: 'text',
      spellcheck: 'false',
      autocomplete: 'off',
      autocapitalize: 'off',
      dir: 'ltr',
      placeholder: fallback ?? '',
    });
    if (!isCore(spec) && (spec.type === 'url' || spec.type === 'iri')) input.inputMode = 'url';
    field = input;
    read = () => (input.value === '' ? null : parse(input.value));
  }

  field.setAttribute('aria-describedby', hintId);
  field.dataset.tag = tag;
  row.append(label, field, hint, error);
  const mark = (refused: AuthorError | null) => {
    error.hidden = refused === null;
    error.textContent = refused === null ? '' : authorErrorText(messages, refused);
    if (refused === null) {
      field.removeAttribute('aria-invalid');
      field.setAttribute('aria-describedby', hintId);
    } else {
      field.setAttribute('aria-invalid', 'true');
      field.setAttribute('aria-describedby', `${errorId} ${hintId}`);
    }
  };
  return { spec, row, field, read, mark, follow };
}
