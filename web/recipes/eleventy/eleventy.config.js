// The build's files (attention-lab.js, attention-lab.css, attention-lab-loader.js, embed.html
// and assets/), copied into the project as attention-lab/, are published as /attention/.
export default function (eleventyConfig) {
  eleventyConfig.addPassthroughCopy({ 'attention-lab': 'attention' });
  eleventyConfig.addPassthroughCopy('my-questions.json');
}
