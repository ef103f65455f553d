// Learning records in node: the statements the quiz and the exercises put in their events' detail.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { afterEach, test } from 'node:test';
import {
  activityId,
  answeredStatement,
  completedStatement,
  interactedStatement,
  trainedStatement,
  XAPI_EXTENSIONS,
  xapiDuration,
} from '../../web/src/widgets/element/xapi.ts';

// Learning Locker's statement validator (CommonJS).
const validateStatement = createRequire(import.meta.url)('xapi-validation').default;
const LEARNER = { objectType: 'Agent', mbox: 'mailto:learner@example.com' };
const ACTIVITY = 'https://example.com/course/attention/check';

// What the module reads of an element: its tag, id, and the nearest lang attribute.
const element = ({ lang, id = '', localName = 'attn-quiz' } = {}) => ({
  localName,
  id,
  closest: (selector) => (selector === '[lang]' && lang !== undefined ? { getAttribute: () => lang } : null),
});
const problems = (statement) => validateStatement(statement).map((w) => `${w.path.join('.')}: ${w.name}`);

afterEach(() => {
  delete globalThis.localStorage;
  delete globalThis.location;
  delete globalThis.document;
});

test("answered: a choice interaction in the text's language, scored, under its quiz", () => {
  const statement = answeredStatement({
    element: element({ lang: 'es-es' }),
    actor: LEARNER,
    activity: ACTIVITY,
    id: 'row sum',
    name: '¿Cuánto suma una fila?',
    success: true,
    response: '1',
    choices: ['0', '1', 'n'],
    correctChoice: 1,
  });
  assert.deepEqual(problems(statement), []);
  assert.equal(statement.object.id, `${ACTIVITY}/row%20sum`);
  assert.deepEqual(statement.object.definition.name, { 'es-ES': '¿Cuánto suma una fila?' });
  assert.equal(statement.object.definition.interactionType, 'choice');
  assert.deepEqual(statement.object.definition.correctResponsesPattern, ['1']);
  assert.deepEqual(statement.object.definition.choices[2], { id: '2', description: { 'es-ES': 'n' } });
  assert.deepEqual(statement.result, { success: true, response: '1', score: { scaled: 1, raw: 1, min: 0, max: 1 } });
  assert.deepEqual(statement.context.contextActivities.parent, [{ objectType: 'Activity', id: ACTIVITY }]);
  assert.ok(Math.abs(Date.parse(statement.timestamp) - Date.now()) < 60_000);
});

test('answered without an actor gets the anonymous one; a wrong answer scores 0; "und" without a language', () => {
  globalThis.location = { origin: 'https://course.example.org', href: 'https://course.example.org/week1.html' };
  const kept = new Map();
  globalThis.localStorage = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, String(v)) };
  const statement = answeredStatement({
    element: element(),
    actor: undefined,
    activity: ACTIVITY,
    id: 'e1',
    name: 'Guess the peak',
    success: false,
    response: '0.4',
  });
  assert.deepEqual(problems(statement), []);
  const { account } = statement.actor;
  assert.equal(account.homePage, 'https://course.example.org');
  assert.match(account.name, /^[0-9a-f-]{36}$/);
  assert.equal(kept.get('attention-lab:learner'), account.name, 'the id is kept for the next statement');
  assert.equal(statement.object.definition.interactionType, 'other');
  assert.deepEqual(statement.object.definition.name, { und: 'Guess the peak' });
  assert.deepEqual(statement.result.score, { scaled: 0, raw: 0, min: 0, max: 1 });
  const badLang = answeredStatement({
    element: element({ lang: 'not a tag!' }),
    actor: undefined,
    activity: ACTIVITY,
    id: 'e1',
    name: 'n',
    success: true,
    response: '',
  });
  assert.deepEqual(badLang.object.definition.name, { und: 'n' });
  assert.deepEqual(badLang.actor, statement.actor, 'one anonymous learner per browser');
  globalThis.localStorage = {
    getItem() {
      throw new DOMException('refused', 'SecurityError');
    },
  };
  const refused = answeredStatement({
    element: element(),
    actor: undefined,
    activity: ACTIVITY,
    id: 'e1',
    name: 'n',
    success: true,
    response: '',
  });
  assert.deepEqual(problems(refused), []);
  assert.notEqual(refused.actor.account.name, account.name, 'storage refused: an id for this page load');
});

test('completed: success when the scaled score reaches the pass mark, scaled by the total', () => {
  const common = { element: element({ lang: 'en' }), actor: LEARNER, activity: ACTIVITY, name: 'Check yourself' };
  const some = completedStatement({ ...common, score: 3, total: 4, passMark: 1 });
  assert.deepEqual(problems(some), []);
  assert.deepEqual(some.result, { success: false, completion: true, score: { scaled: 0.75, raw: 3, min: 0, max: 4 } });
  assert.equal(completedStatement({ ...common, score: 4, total: 4, passMark: 1 }).result.success, true);
  assert.equal(
    completedStatement({ ...common, score: 3, total: 4, passMark: 0.75 }).result.success,
    true,
    'at the mark',
  );
  assert.equal(completedStatement({ ...common, score: 4, total: 5, passMark: 0.8 }).result.success, true, '4/5 = 0.8');
  assert.equal(completedStatement({ ...common, score: 2, total: 4, passMark: 0.75 }).result.success, false);
  assert.equal(completedStatement({ ...common, score: 0, total: 3, passMark: 0 }).result.success, true, 'mark 0');
  assert.equal(completedStatement({ ...common, score: 0, total: 0, passMark: 1 }).result.score.scaled, 0);
});

test('registration: both statements carry it as context.registration, valid xAPI; none without it', () => {
  const registration = '0f8fad5b-d9cb-469f-a165-70867728950e';
  const common = { element: element({ lang: 'en' }), actor: LEARNER, activity: ACTIVITY, registration };
  const answered = answeredStatement({
    ...common,
    id: 'q1',
    name: 'Q',
    success: false,
    response: '2',
    choices: ['a', 'b', 'c'],
    correctChoice: 0,
  });
  const completed = completedStatement({ ...common, name: 'Quiz', score: 1, total: 2, passMark: 0.5 });
  for (const statement of [answered, completed]) {
    assert.deepEqual(problems(statement), []);
    assert.equal(statement.context.registration, registration);
  }
  assert.deepEqual(answered.context.contextActivities.parent, [{ objectType: 'Activity', id: ACTIVITY }]);
  assert.equal(completed.result.success, true);
  // The validator checks the registration's form: a bad one is refused (so the check above means something).
  assert.notDeepEqual(problems({ ...completed, context: { registration: 'not-a-uuid' } }), []);
  const without = completedStatement({
    ...common,
    registration: undefined,
    name: 'Quiz',
    score: 1,
    total: 2,
    passMark: 1,
  });
  assert.equal(without.context, undefined);
  assert.deepEqual(problems(without), []);
});

test("activityId: the attribute, else the page (no hash) with the element's id, else its tag and place", () => {
  globalThis.location = { href: 'https://course.example.org/week1.html#quiz' };
  const second = element({ localName: 'attn-quiz' });
  globalThis.document = { getElementsByTagName: () => [element(), second] };
  assert.equal(activityId(second, ACTIVITY), ACTIVITY);
  assert.equal(
    activityId(element({ id: 'check yourself' }), undefined),
    'https://course.example.org/week1.html#check%20yourself',
  );
  assert.equal(activityId(second, undefined), 'https://course.example.org/week1.html#attn-quiz-2');
});

test('a training run finished: "experienced", the best validation accuracy as its score, duration and settings', () => {
  const statement = trainedStatement({
    element: element({ lang: 'zh-CN', localName: 'attn-cue-trainer' }),
    actor: LEARNER,
    activity: ACTIVITY,
    registration: 'ec531277-b57b-4c15-8d91-d292c5b2b8f7',
    name: '训练',
    blocks: 2,
    best: 0.987654321,
    bestEpoch: 27,
    route: 'cue-position',
    settings: { seed: 3, heads: 2, epochs: 30 },
    durationMs: 61234.5,
  });
  assert.deepEqual(problems(statement), []);
  assert.equal(statement.verb.id, 'http://adlnet.gov/expapi/verbs/experienced');
  assert.equal(statement.object.id, ACTIVITY);
  assert.deepEqual(statement.object.definition.name, { 'zh-CN': '训练' });
  assert.deepEqual(statement.result.score, { scaled: 0.9877, raw: 0.9877, min: 0, max: 1 });
  assert.equal(statement.result.completion, true);
  assert.equal(statement.result.success, undefined, 'a run is not graded');
  assert.equal(statement.result.duration, 'PT61.23S');
  assert.deepEqual(statement.result.extensions, {
    [XAPI_EXTENSIONS.settings]: { seed: 3, heads: 2, epochs: 30, blocks: 2 },
    [XAPI_EXTENSIONS.run]: { bestEpoch: 27, route: 'cue-position' },
  });
  assert.equal(statement.context.registration, 'ec531277-b57b-4c15-8d91-d292c5b2b8f7');
  assert.equal(xapiDuration(0), 'PT0.00S');
  assert.equal(xapiDuration(-5), 'PT0.00S', 'never negative');
});

test('an intervention tried in the probe: "interacted", the sequence as the response, each model\'s result', () => {
  const intervention = {
    action: 'knock-out',
    ablation: 'zero',
    pattern: 'previous',
    block: 2,
    head: 1,
    positions: [],
    patchInto: [],
  };
  const result = (blocks, status, accuracy) => ({
    blocks,
    status,
    message: '',
    accuracy,
    loss: 0.5,
    cleanAccuracy: 0.99991,
    cleanLoss: 0.1,
    restoredFraction: NaN,
    sequenceRestoredFraction: NaN,
    prediction: 4,
    unchangedPrediction: 5,
    probabilities: [0.1, 0.9],
    unchangedProbabilities: [0.2, 0.8],
    ms: 3,
  });
  const statement = interactedStatement({
    element: element({ lang: 'en' }),
    actor: LEARNER,
    activity: ACTIVITY,
    name: 'Probing',
    tokens: [0, 7, 4, 1, 1, 2, 3, 5, 6, 7],
    intervention,
    results: [result(1, 'not-applicable', NaN), result(2, 'changed', 0.123456)],
  });
  assert.deepEqual(problems(statement), []);
  assert.equal(statement.verb.id, 'http://adlnet.gov/expapi/verbs/interacted');
  assert.equal(statement.result.response, '0,7,4,1,1,2,3,5,6,7');
  assert.equal(statement.result.score, undefined);
  assert.deepEqual(statement.result.extensions[XAPI_EXTENSIONS.intervention], intervention);
  assert.deepEqual(statement.result.extensions[XAPI_EXTENSIONS.results], [
    {
      blocks: 1,
      status: 'not-applicable',
      prediction: 4,
      unchangedPrediction: 5,
      accuracy: null,
      cleanAccuracy: 0.9999,
    },
    { blocks: 2, status: 'changed', prediction: 4, unchangedPrediction: 5, accuracy: 0.1235, cleanAccuracy: 0.9999 },
  ]);
  assert.deepEqual(JSON.parse(JSON.stringify(statement)), statement, 'survives JSON as it is');
  assert.equal(statement.context, undefined, 'no registration: no context');
});
