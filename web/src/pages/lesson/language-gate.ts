// The lesson's first script, a classic one in its <head> (lesson-language.js), run before the first
// paint. The page's HTML holds its first screen in one language (<html data-prerendered>, made at
// build time by first-screen.ts); for a reader of another, it marks the page data-relocalizing,
// which keeps it hidden (page.css) until the lesson's script has put the first screen in the
// reader's language in its place (main.ts): nobody sees the words change under them. It applies
// ?theme= too, so the first paint has the asked colours.
import { pageLanguage } from '../../common/language';
import { applyPageTheme } from '../../widgets/element/page-theme';

applyPageTheme();

const root = document.documentElement;
const prerendered = root.dataset.prerendered;
const language = pageLanguage();
if (prerendered !== undefined && prerendered !== language) root.dataset.relocalizing = language;
