// The stand-in LMS of `attention-lab package --preview` (web/src/package/preview.ts): scorm-again
// (loaded before this file as a classic script) as window.API (SCORM 1.2) or window.API_1484_11
// (SCORM 2004), started from launch.json (the learner; after a suspended session, its state),
// committing to the preview server, and every call the package makes posted to the server, which
// prints it. Then the package's page in the frame.
(async () => {
  const { standard, cmi } = await (await fetch('launch.json')).json();
  const settings = { lmsCommitUrl: 'commit', autocommit: false, logLevel: 4, dataCommitFormat: 'json' };
  const scorm12 = standard === 'scorm12';
  const api = scorm12 ? new window.Scorm12API(settings) : new window.Scorm2004API(settings);
  api.loadFromJSON(cmi, '');
  const names = scorm12
    ? ['LMSInitialize', 'LMSGetValue', 'LMSSetValue', 'LMSCommit', 'LMSFinish']
    : ['Initialize', 'GetValue', 'SetValue', 'Commit', 'Terminate'];
  const lastError = scorm12 ? 'LMSGetLastError' : 'GetLastError';
  let seq = 0;
  let queue = [];
  const send = () => {
    if (!queue.length) return;
    const calls = queue;
    queue = [];
    fetch('log', { method: 'POST', body: JSON.stringify(calls), keepalive: true }).catch(() => {});
  };
  for (const name of names) {
    const call = api[name].bind(api);
    api[name] = (...args) => {
      const result = call(...args);
      queue.push({
        seq: ++seq,
        fn: name,
        args: args.map(String),
        result: String(result),
        error: String(api[lastError]()),
      });
      if (queue.length === 1) setTimeout(send, 50);
      return result;
    };
  }
  addEventListener('pagehide', send);
  window.lmsCalls = () => seq;
  if (scorm12) window.API = api;
  else window.API_1484_11 = api;
  document.getElementById('sco').src = 'sco/index.html';
})();
