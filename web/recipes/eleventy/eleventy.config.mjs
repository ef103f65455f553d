// The build's files (attention-lab.js, attention-lab.css, attention-lab-loader.js, embed.html
// and assets/), copied into the project as attention-lab/, are published as /attention/, as
// they are: Eleventy does not treat them as templates.
export default function (eleventyConfig) {
  eleventyConfig.ignores.add('attention-lab/**');
  eleventyConfig.addPassthroughCopy({ 'attention-lab': 'attention' });
  eleventyConfig.addPassthroughCopy('my-questions.json');
}
