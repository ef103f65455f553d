// Registers every attention-lab widget at once: the npm package's entry, for a course's own
// bundler to split as it likes. The site's pages and the script a course page includes define
// each widget when it first appears instead (autoload.ts).
import './widgets.css';
import './soft-lookup/soft-lookup';
import './attention-steps/attention-steps';
import './ranked-table/ranked-table';
import './scale-figure/scale-figure';
import './mask-figure/mask-figure';
import './heads-figure/heads-figure';
import './pitfall-demo/pitfall-demo';
import './flowchart/flowchart';
import './quiz/quiz';
import './exercises/exercises';
import './cue-trainer/cue-trainer';
import './cue-probe/cue-probe';
