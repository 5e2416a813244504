/// The start of every script `PageAssetRoutes` serves (Explore, the Library with its Import Review, the Data page
/// and Steps History), defined once: the session token, `$`, `call` (one request to the API; a refusal throws an
/// Error whose `answer` is the server's JSON), `notice`, and the message kept across the reload that follows an
/// action (`reloadWith` keeps it, `restoreNotice` shows it and returns what was kept).
enum PageScript {
    /// Script lines for the top of a page's `(() => { … })()`. `notice` writes the page's notice, or the app bar's
    /// live line on a page without one, never both: the notice is itself a polite status region, so writing the
    /// live line too announced and showed the same message twice.
    static let prelude = #"""
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
        """#
}
