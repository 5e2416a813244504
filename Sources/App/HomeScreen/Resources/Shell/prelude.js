  const token = document.querySelector('meta[name="widgetweaver-token"]').content;
  const $ = (s, r = document) => r.querySelector(s);
  const noticeKey = 'widgetweaver.notice';

  function notice(text, isError) {
    const box = $('#notice');
    if (!box) { $('#live').textContent = text; return; }
    box.hidden = false;
    box.classList.toggle('error', !!isError);
    $('#notice-text').textContent = text;
  }
  function reloadWith(text, extra) {
    sessionStorage.setItem(noticeKey, JSON.stringify(Object.assign({ text }, extra || {})));
    location.reload();
  }
  // A message kept across the reload that follows an action.
  function restoreNotice() {
    const kept = sessionStorage.getItem(noticeKey);
    if (!kept) return null;
    sessionStorage.removeItem(noticeKey);
    const k = JSON.parse(kept);
    notice(k.text, k.error);
    return k;
  }
  async function call(method, path, body, raw) {
    const headers = { 'X-WidgetWeaver-Token': token };
    if (!raw) headers['Content-Type'] = 'application/json';
    const response = await fetch(path, { method, headers,
      body: raw ? body : (body === undefined ? undefined : JSON.stringify(body)) });
    let answer = {};
    try { answer = await response.json(); } catch (_) {}
    if (!response.ok) {
      const e = new Error(answer.error || ('HTTP ' + response.status));
      e.answer = answer;
      throw e;
    }
    return answer;
  }
