// The core's errors in a widget's words. The facade names an argument as its JS option
// (`numHeads`); a widget's author wrote an attribute (`heads`), and the contract says which
// attribute sets which option (`core: { config, key }`). So an ArgumentError about an option an
// attribute sets becomes an AttributeError naming the attributes, worded like the widget's own
// attribute errors: "attribute heads must divide d-model = 64, got 5", with the code and the
// values (renamed the same way), from which the widget says it in its language (common catalog).
import { ArgumentError, substituteNames, type ErrorCode } from '../../core/errors';
import { AuthorError, isCore, type Said, type WidgetContract } from './contract';

/** Which ends of a range the values give: both, only the lowest, only the highest. */
function bounds(values: Readonly<Record<string, number>>): string {
  if (values.min !== undefined && values.max !== undefined) return 'both';
  return values.min !== undefined ? 'min' : 'max';
}

/**
 * The core's refusal of an attribute as a message of the common catalog, one per code, built
 * from the values; a code whose values do not say it all (the choices of not-one-of, the rule of
 * not-allowed) quotes the core's English words (`english`: what follows the attribute's name).
 */
export function attributeSaid(
  attribute: string,
  code: ErrorCode,
  values: Readonly<Record<string, number>>,
  english: string,
): Said {
  const { min, max, got } = values;
  switch (code) {
    case 'out-of-range':
      return { key: 'coreOutOfRange', params: { attribute, bounds: bounds(values), min, max, got } };
    case 'bad-length':
      return { key: 'coreBadLength', params: { attribute, bounds: bounds(values), min, max, got } };
    case 'not-whole':
      return { key: 'coreNotWhole', params: { attribute, got } };
    case 'not-finite':
      return { key: 'coreNotFinite', params: { attribute } };
    case 'must-divide': {
      const other = Object.keys(values).find((name) => name !== 'got') ?? '';
      return { key: 'coreMustDivide', params: { attribute, other, size: values[other], got } };
    }
    case 'too-many-elements':
      return { key: 'coreTooMany', params: { attribute, max, got } };
    default:
      return { key: 'coreOther', params: { attribute, detail: english } };
  }
}

/** An attribute whose value the core refused: shown in the widget like any author's mistake. */
export class AttributeError extends AuthorError {
  constructor(
    message: string,
    /** The attribute at fault: `heads`. */
    readonly attribute: string,
    readonly code: ErrorCode,
    /** The numbers involved, named as the attributes are: { 'd-model': 64, got: 5 }. */
    readonly values: Readonly<Record<string, number>>,
  ) {
    super(message, attributeSaid(attribute, code, values, message.replace(`attribute ${attribute} `, '')));
  }
}

/** The attribute that sets each core option of the contract: numHeads -> heads. */
function attributesByOption(contract: WidgetContract): Map<string, string> {
  const byOption = new Map<string, string>();
  for (const spec of contract.attributes)
    if (isCore(spec) && !byOption.has(spec.core.key)) byOption.set(spec.core.key, spec.name);
  return byOption;
}

/**
 * `error` worded with the widget's attribute names when it is the core refusing an option one
 * of its attributes sets; undefined for anything else (the widget reports that as a failure).
 */
export function attributeError(error: unknown, contract: WidgetContract): AttributeError | undefined {
  if (!(error instanceof ArgumentError)) return undefined;
  const byOption = attributesByOption(contract);
  const attribute = byOption.get(error.argument);
  if (attribute === undefined) return undefined;
  const nameOf = (name: string) => byOption.get(name) ?? name;
  const values = Object.fromEntries(Object.entries(error.values).map(([name, value]) => [nameOf(name), value]));
  return new AttributeError(
    `attribute ${attribute} ${substituteNames(error.detail, nameOf)}`,
    attribute,
    error.code,
    Object.freeze(values),
  );
}
