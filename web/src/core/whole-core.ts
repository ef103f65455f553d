// The whole core (loadCore): the attention core, the lesson's experiments (objects in, objects
// out) and the cue task's trainer (models that live in the core until dispose()).
import type { LabModule, RawAttentionSteps, RawCueTrainer } from '../generated/attention_core.mjs';
import { AttentionCoreImpl } from './attention-core.js';
import { MAX_SIZE, describe, requireElements, requireMat, requireWhole32, wrongType } from './checks.js';
import { ArgumentError } from './errors.js';
import { configFrom } from './configs.js';
import type {
  AttentionSteps,
  AttentionStepsConfig,
  Core,
  CueConfig,
  CueModel,
  HalfPrecisionPitfall,
  HeadsDemo,
  HeadsDemoConfig,
  InterventionInputs,
  Mat,
  MaskDemo,
  MaskDemoConfig,
  PitfallConfig,
  ScaleSweep,
  ScaleSweepConfig,
} from './types.js';

/** The whole core (loadCore): the attention core, the lesson's experiments and the cue trainer. */
export class CoreImpl extends AttentionCoreImpl implements Core {
  declare protected readonly m: LabModule;

  constructor(m: LabModule) {
    super(m);
  }

  private readonly cueRegistry = new FinalizationRegistry<RawCueTrainer>((handle) => {
    if (!handle.isDeleted()) handle.delete();
  });

  cueConfigError(options: Partial<CueConfig> = {}): { key: string; message: string } | undefined {
    const check = this.m.cueTrainConfigError(configFrom(this.configs.cueTrain, 'config', options));
    return check.message ? check : undefined;
  }

  createCueModel(options: Partial<CueConfig> = {}): CueModel {
    const handle = this.m.createCueTrainer(configFrom(this.configs.cueTrain, 'config', options));
    if (!handle) this.m.raiseError();
    return this.wrapCue(handle!);
  }

  private wrapCue(handle: RawCueTrainer): CueModel {
    const core = this;
    const token = {};
    const live = () => {
      if (handle.isDeleted()) throw new Error('this cue model has been disposed');
      return handle;
    };
    const model: CueModel = {
      parameterCount: handle.parameterCount(),
      baselineAccuracy: handle.baselineAccuracy(),
      chanceAccuracy: handle.chanceAccuracy(),
      trainEpoch: () => live().trainEpoch(),
      trainBatches(n) {
        if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_SIZE)
          throw new ArgumentError(
            'n',
            typeof n !== 'number' ? 'wrong-type' : Number.isInteger(n) ? 'out-of-range' : 'not-whole',
            `must be a whole number between 1 and ${MAX_SIZE}, got ${describe(n)}`,
            typeof n === 'number' ? { min: 1, max: MAX_SIZE, got: n } : {},
          );
        return live().trainBatches(n);
      },
      progress: () => live().progress(),
      history: () => live().history(),
      analysis: () => live().analyse(),
      route: () => live().route(),
      intervene(config = {}, inputs = {}) {
        const h = live();
        const full = configFrom(core.configs.intervention, 'config', config);
        if (inputs == null || typeof inputs !== 'object') throw wrongType('inputs', 'an object of lists', inputs);
        const list = (name: keyof InterventionInputs, whole: boolean) => {
          const values = inputs[name];
          if (values === undefined) return [];
          if (values === null || typeof values !== 'object' || typeof values.length !== 'number')
            throw wrongType(name, 'an array of numbers', values);
          requireElements(name, values.length, core.max);
          const out = Array.from(values);
          out.forEach((v, i) => {
            if (whole) requireWhole32(`${name}[${i}]`, v);
            else if (typeof v !== 'number') throw wrongType(`${name}[${i}]`, 'a number', v);
          });
          return out;
        };
        const result = h.intervene(
          full,
          list('tokens', true),
          list('corrupted', true),
          list('positions', true),
          list('given', false),
        );
        core.m.raiseError();
        return result;
      },
      report: () => live().report(),
      probe(tokens) {
        const h = live();
        if (tokens == null || typeof tokens !== 'object' || typeof tokens.length !== 'number')
          throw wrongType('tokens', 'an array of token ids', tokens);
        requireElements('tokens', tokens.length, core.max);
        const ids = new Int32Array(tokens.length);
        for (let i = 0; i < ids.length; i++) {
          requireWhole32(`tokens[${i}]`, tokens[i]);
          ids[i] = tokens[i];
        }
        const [at] = core.put([ids]);
        return h.probe(at, ids.length);
      },
      weights: () => live().weights(),
      loadWeights(weights) {
        const h = live();
        if (!(weights instanceof Float32Array)) throw wrongType('weights', 'a Float32Array', weights);
        requireElements('weights', weights.length, core.max);
        const [at] = core.put([weights]);
        h.loadWeights(at, weights.length);
      },
      dispose() {
        if (handle.isDeleted()) return;
        core.cueRegistry.unregister(token);
        handle.delete();
      },
    };
    // A safety net for a forgotten dispose(); not a substitute for it.
    this.cueRegistry.register(model, handle, token);
    return model;
  }

  // ---- the lesson's experiments: objects in, objects out ----
  // These calls never throw inside the module (an object argument is freed only when the call
  // returns): a failure returns an empty result and leaves its error for raiseError().

  scaleSweep(options: Partial<ScaleSweepConfig> = {}): ScaleSweep {
    return this.checked(this.m.scaleSweep(configFrom(this.configs.scaleSweep, 'options', options)));
  }

  maskDemo(options: Partial<MaskDemoConfig> = {}): MaskDemo {
    return this.checked(this.m.maskDemo(configFrom(this.configs.maskDemo, 'options', options)));
  }

  headsDemo(options: Partial<HeadsDemoConfig> = {}): HeadsDemo {
    return this.checked(this.m.headsDemo(configFrom(this.configs.headsDemo, 'options', options)));
  }

  halfPrecisionPitfall(options: Partial<PitfallConfig> = {}): HalfPrecisionPitfall {
    return this.checked(this.m.halfPrecisionPitfall(configFrom(this.configs.pitfall, 'options', options)));
  }

  attentionSteps(
    options: Partial<AttentionStepsConfig> = {},
    given?: { query: Mat; key: Mat; value: Mat },
  ): AttentionSteps {
    if (given === undefined)
      return stepsOf(this.checked(this.m.attentionSteps(configFrom(this.configs.attentionSteps, 'options', options))));
    if (given === null || typeof given !== 'object') throw wrongType('given', '{ query, key, value }', given);
    const { query, key, value } = given;
    requireMat('query', query, this.max);
    requireMat('key', key, this.max);
    requireMat('value', value, this.max);
    // The cells' shapes are the example's sizes; options may repeat them but not contradict them.
    const config = configFrom(this.configs.attentionSteps, 'options', {
      ...options,
      tokens: query.rows,
      dK: query.cols,
      dV: value.cols,
    });
    for (const [name, expected] of [
      ['tokens', query.rows],
      ['dK', query.cols],
      ['dV', value.cols],
    ] as const) {
      const asked = options[name];
      if (asked !== undefined && asked !== expected)
        throw new ArgumentError(
          `options.${name}`,
          'not-allowed',
          `is ${asked}, but the given cells make it ${expected}`,
          {
            got: asked,
            expected,
          },
        );
    }
    if (key.rows !== query.rows || key.cols !== query.cols)
      throw new ArgumentError(
        'key',
        'bad-shape',
        `must have the shape of {query} (${query.rows}, ${query.cols}), got (${key.rows}, ${key.cols})`,
        { rows: query.rows, cols: query.cols, gotRows: key.rows, gotCols: key.cols },
      );
    if (value.rows !== query.rows)
      throw new ArgumentError('value', 'bad-shape', `must have ${query.rows} rows (tokens), got ${value.rows}`, {
        rows: query.rows,
        gotRows: value.rows,
        gotCols: value.cols,
      });
    const [q, k, v] = this.put([query.data, key.data, value.data]);
    return stepsOf(this.checked(this.m.attentionStepsGiven(config, q, k, v)));
  }
}

/** The module's flat step matrices as shaped ones. */
function stepsOf(raw: RawAttentionSteps): AttentionSteps {
  const { tokens: n, dK, dV } = raw.config;
  const square = (data: Float32Array): Mat => ({ rows: n, cols: n, data });
  return {
    config: raw.config,
    scaleFactor: raw.scaleFactor,
    maskedValue: raw.maskedValue,
    allowed: { rows: n, cols: n, data: raw.allowed },
    query: { rows: n, cols: dK, data: raw.query },
    key: { rows: n, cols: dK, data: raw.key },
    value: { rows: n, cols: dV, data: raw.value },
    scores: square(raw.scores),
    scaled: square(raw.scaled),
    masked: square(raw.masked),
    weights: square(raw.weights),
    output: { rows: n, cols: dV, data: raw.output },
  };
}
