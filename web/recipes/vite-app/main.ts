// One import registers the widgets and brings their stylesheet; the types come with it.
import 'attention-lab';
import type { XapiStatement } from 'attention-lab';

const quiz = document.querySelector('attn-quiz')!;
quiz.actor = { objectType: 'Agent', mbox: 'mailto:learner@example.com' };
quiz.addEventListener('attn-quiz-answered', (event) => {
  const statement: XapiStatement = event.detail.statement;
  document.getElementById('log')!.textContent = `${event.detail.score}/${event.detail.total} ${statement.verb.id}`;
});
const figure: HTMLElementTagNameMap['attn-mask-figure'] = document.createElement('attn-mask-figure');
figure.addEventListener('attn-change', (event) => console.log(event.detail.fractions.causal));
// Each attribute has a typed property that writes it: positions="8".
figure.positions = 8;
