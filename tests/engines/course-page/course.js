// The course page's script (test fixture): frames the soft lookup from the lesson's site, whose
// address is this page's ?site=, and sizes the frame by the height it posts. Checks where each
// message comes from, as the embedding guide asks authors to.
const site = new URL(new URLSearchParams(location.search).get('site'));
const frame = document.getElementById('framed');
frame.src = new URL(
  `embed.html?widget=attn-soft-lookup&parent-origin=${encodeURIComponent(location.origin)}`,
  site,
).href;
window.addEventListener('message', (event) => {
  if (event.origin !== site.origin || event.source !== frame.contentWindow || event.data?.source !== 'attention-lab')
    return;
  if (event.data.type === 'height') frame.height = String(event.data.height);
});
