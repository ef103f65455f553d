// Registers every attention-lab widget. This is the one script an embedding page loads.
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
