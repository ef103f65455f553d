// The learner's work in a course package: every widget's saved value (what base.ts's
// saveProgress keeps: {answers, settings, ...}) in one JSON object, kept by the LMS (SCORM's
// suspend data, cmi5's state) through the session the bridge holds. The LMS keeps a limited
// number of characters (SCORM 1.2: 4,096), so when the whole does not fit, answers come first:
// the readers' changed settings are left out first, then what the ungraded widgets keep (the
// trainer's finished run); a save whose answers alone do not fit is refused as "full", which the
// widget says in place.
import { ProgressStoreError, type ProgressStore } from '../widgets/element/progress-store';

type Saved = Record<string, Record<string, unknown>>;

/** The settings part base.ts keeps for every widget. */
const SETTINGS = 'settings';

/** A ProgressStore over one JSON text of at most `limit` characters, which `write` keeps. */
export class PackageState implements ProgressStore {
  #values: Saved = {};
  /** The keys of the graded widgets (quiz, exercises): what they keep is answers. */
  readonly graded = new Set<string>();
  /** The text last made to fit (what `write` is given). */
  text = '';

  constructor(
    saved: string,
    readonly limit: number,
    private readonly write: (text: string) => void,
  ) {
    try {
      const parsed = saved ? (JSON.parse(saved) as unknown) : {};
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) this.#values = parsed as Saved;
    } catch {
      console.warn('attention-lab: the saved state is not JSON; starting afresh');
    }
    this.text = saved;
  }

  load(key: string): unknown {
    return Object.hasOwn(this.#values, key) ? this.#values[key] : undefined;
  }

  save(key: string, value: unknown): void {
    const values = { ...this.#values, [key]: value as Record<string, unknown> };
    const text = fitted(values, this.graded, this.limit);
    if (text === undefined)
      throw new ProgressStoreError(
        'full',
        `the answers take more than the LMS keeps (${this.limit.toLocaleString('en')} characters)`,
      );
    this.#values = values;
    this.text = text;
    this.write(text);
  }

  remove(key: string): void {
    const { [key]: _gone, ...rest } = this.#values;
    this.#values = rest;
    this.text = fitted(rest, this.graded, this.limit) ?? '{}';
    this.write(this.text);
  }
}

/**
 * `values` as JSON in at most `limit` characters: whole if it fits, else without the settings
 * parts, else also without the ungraded widgets' values; undefined when even that is too long.
 */
export function fitted(values: Saved, graded: ReadonlySet<string>, limit: number): string | undefined {
  const whole = JSON.stringify(values);
  if (whole.length <= limit) return whole;
  const withoutSettings = Object.fromEntries(
    Object.entries(values).map(([key, value]) => {
      const { [SETTINGS]: _settings, ...kept } = value && typeof value === 'object' ? value : {};
      return [key, kept];
    }),
  );
  const lighter = JSON.stringify(withoutSettings);
  if (lighter.length <= limit) return lighter;
  const answers = JSON.stringify(
    Object.fromEntries(Object.entries(withoutSettings).filter(([key]) => graded.has(key))),
  );
  return answers.length <= limit ? answers : undefined;
}
