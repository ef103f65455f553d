// A stand-in for the course package's bridge on the hand-made test AU (index.html), so the cmi5
// adapter is tried in browsers against the test LMS: it connects, keeps the quiz's answers
// (question id -> right) as the session's saved state, reports the score from them, sends the
// quiz's statements and ends the session when the page goes. window.cmi5Test says what the
// session read, for the test.
import { connect } from '../../../web/src/lms/cmi5.ts';

const settings = JSON.parse(document.getElementById('attention-lab-package').textContent);
const session = await connect(settings);
const answers = session?.savedState ? JSON.parse(session.savedState) : {};
const total = 4;

window.cmi5Test = {
  connected: session !== undefined && session.status.ok,
  status: session?.status,
  savedState: session?.savedState ?? '',
  passMark: session?.passMark,
  launchMode: session?.launchData?.launchMode,
  returnURL: session?.returnURL,
  learner: session?.learner,
};
document.getElementById('status').textContent = session
  ? session.status.ok
    ? `connected: ${Object.keys(answers).length} answers restored`
    : `not connected: ${session.status.error.message}`
  : 'no LMS';

if (session?.status.ok) {
  const quiz = document.querySelector('attn-quiz');
  quiz.addEventListener('attn-quiz-answered', (event) => {
    void session.record(event.detail.statement);
    answers[event.detail.id] = event.detail.correct;
    void session.saveState(JSON.stringify(answers)).then(() => (window.cmi5Test.saved = JSON.stringify(answers)));
    const raw = Object.values(answers).filter(Boolean).length;
    const answered = Object.keys(answers).length;
    void session.report({
      raw,
      max: total,
      scaled: raw / total,
      completed: answered === total,
      passed: raw / total >= session.passMark,
    });
  });
  quiz.addEventListener('attn-quiz-completed', (event) => void session.record(event.detail.statement));
  addEventListener('pagehide', () => void session.terminate());
  window.cmi5Test.terminate = () => session.terminate();
}
await import('./attention-lab.js');
