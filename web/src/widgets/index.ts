// Registers every attention-lab widget at once: the npm package's entry, for a course's own
// bundler to split as it likes. The site's pages and the script a course page includes define
// each widget when it first appears instead (autoload.ts).
import './widgets.css';
import './soft-lookup';
import './attention-steps';
import './ranked-table';
import './scale-figure';
import './mask-figure';
import './heads-figure';
import './pitfall-demo';
import './flowchart';
import './quiz';
import './exercises';
import './cue-trainer';
import './cue-probe';
