  // The page's requests to its own server, one helper for the Noise page's scripts (board.js, calibrate.js):
  // the token is read at each request (after a server restart the home script writes the new one in), and a
  // refusal throws its message with the server's whole answer as `answer`.
  const tokenMeta = document.querySelector('meta[name="widgetweaver-token"]');
  async function call(method, path, body) {
    const headers = { 'X-WidgetWeaver-Token': tokenMeta ? tokenMeta.content : '' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined :
      JSON.stringify(body) });
    let answer = {};
    try { answer = await response.json(); } catch (_) { answer = {}; }
    if (!response.ok) {
      const e = new Error(answer.error || ('HTTP ' + response.status));
      e.answer = answer;
      throw e;
    }
    return answer;
  }
