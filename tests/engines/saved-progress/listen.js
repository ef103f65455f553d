// Every widget's attn-progress detail, in order, for the test to read (window.progress).
window.progress = [];
document.addEventListener('attn-progress', (event) => window.progress.push(event.detail));
