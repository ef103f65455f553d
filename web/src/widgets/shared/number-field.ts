// A number a reader typed into a widget's field, read by the widget's locale (locale-numbers.ts:
// Spanish "0,5" is a half, English "9,408" is 9408; the plain digits form everywhere), with a true
// minus sign taken as a minus, and checked against the field's range. DOM-free, so unit-tested.
import { parseLocaleNumber } from '../../common/locale-numbers';

export interface FieldRule {
  min: number;
  max: number;
  /** whole numbers only */
  integer?: boolean;
}

/**
 * What a field holds: a number in range, or not (then the number it was read as, if any, out of
 * range or not whole). `otherValue`: what an ambiguous entry could also mean (Spanish "9.408": 9.408).
 */
export type FieldReading =
  { ok: true; value: number; otherValue?: number } | { ok: false; value?: number; otherValue?: number };

export function readNumberField(text: string, locale: string, rule: FieldRule): FieldReading {
  if (!(rule.min <= rule.max))
    throw new RangeError(`readNumberField: rule.min (${rule.min}) must not exceed rule.max (${rule.max})`);
  const reading = parseLocaleNumber(text.replace(/\u2212/g, '-'), locale);
  if (!reading) return { ok: false };
  const { value, otherValue } = reading;
  const ok = value >= rule.min && value <= rule.max && (!rule.integer || Number.isInteger(value));
  return otherValue === undefined ? { ok, value } : { ok, value, otherValue };
}
