'use strict';
(() => {
  const meta = document.querySelector('meta[name="widgetweaver-token"]');
  let token = meta ? meta.content : '';
  const live = document.getElementById('live');
  const say = (text) => { if (live) live.textContent = text; };

  async function post(path, body) {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-WidgetWeaver-Token': token },
      body: JSON.stringify(body),
    });
    let answer = {};
    try { answer = await response.json(); } catch (e) { answer = {}; }
    if (!response.ok) throw new Error(answer.error || ('HTTP ' + response.status));
    return answer;
  }

  // Issue 41.5: the second click of a double-click on a reminder row landed on the row that slid into
  // its place, completing it too. Presses on reminder rows are ignored while a completion is on its way
  // and for `quietMs` after its answer (and after an Undo), as the desktop widget does.
  const quietMs = 600;
  let rowsBusy = 0;
  let rowsQuietUntil = 0;
  const isRow = (button) => button.dataset.actionKind === 'completeReminder';
  function quietRows() { rowsQuietUntil = Math.max(rowsQuietUntil, performance.now() + quietMs); }

  // The notice after a press that can be taken back: its text and Undo (also Ctrl+Z) for the seconds
  // the server gives; it sits after the pressed widget in the Tab order.
  const notice = document.getElementById('tap-notice');
  const noticeText = document.getElementById('tap-notice-text');
  const undoButton = document.getElementById('tap-undo');
  let undoPath = '';
  let noticeSerial = 0;
  // The pressed button (its action id and place among the widget's buttons): focus goes back to it
  // (or to the row now in its place) when the notice closes under the keyboard.
  let pressed = { actionId: null, index: -1 };
  function showNotice(text, path, seconds, near, from) {
    if (!notice) return;
    const serial = ++noticeSerial;
    if (from) {
      const own = from.closest('.widget');
      pressed = {
        actionId: from.dataset.actionId || null,
        index: own ? [...own.querySelectorAll('button.hit')].indexOf(from) : -1,
      };
    }
    undoPath = path || '';
    noticeText.textContent = text;
    undoButton.hidden = !undoPath;
    if (near && near.isConnected) near.after(notice);
    notice.hidden = false;
    setTimeout(() => { if (serial === noticeSerial) hideNotice(); }, (seconds || 8) * 1000);
  }
  function hideNotice() {
    if (!notice) return;
    const hadFocus = notice.contains(document.activeElement);
    notice.hidden = true;
    undoPath = '';
    if (hadFocus) focusPressedOrContent();
  }
  function focusPressedOrContent() {
    const tile = notice.previousElementSibling;
    const buttons = tile && tile.matches('.widget') ? [...tile.querySelectorAll('button.hit')] : [];
    const again = buttons.find((b) => pressed.actionId && b.dataset.actionId === pressed.actionId) ||
      buttons[pressed.index] || buttons[0];
    if (again) again.focus(); else document.getElementById('content').focus();
    // The row taken back returns when the widget is drawn again: focus moves onto it then.
    refocus = again && pressed.actionId ?
      { key: tile.dataset.designId + '/' + tile.dataset.family, actionId: pressed.actionId } : null;
  }
  let refocus = null;
  async function undoPress() {
    const path = undoPath;
    if (!path) return;
    // Read before the button hides (a hidden button gives its focus to the page).
    const fromKeyboard = notice.contains(document.activeElement);
    undoPath = '';
    undoButton.hidden = true;
    quietRows();
    try {
      const answer = await post(path, {});
      noticeSerial++;
      hideNotice();
      if (fromKeyboard) focusPressedOrContent();
      say(answer.message || 'Undone');
    } catch (e) {
      // The server says why ("Not undone: … changed since it was completed"); nothing was written.
      showNotice(e.message, '', 8, null);
    } finally {
      quietRows();
    }
  }
  if (undoButton) undoButton.addEventListener('click', undoPress);
  document.addEventListener('keydown', (event) => {
    if (!undoPath || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    if (event.key !== 'z' && event.key !== 'Z') return;
    // A text box keeps its own Ctrl+Z.
    const t = event.target;
    if (t && (t.isContentEditable || t.tagName === 'TEXTAREA' || (t.tagName === 'INPUT' &&
      !['range', 'checkbox', 'radio', 'button'].includes(t.type)))) return;
    event.preventDefault();
    undoPress();
  });

  // Buttons over the widgets (event delegation: tiles are swapped live).
  document.addEventListener('click', async (event) => {
    const button = event.target.closest('button.hit');
    if (!button) return;
    const row = isRow(button);
    if (row && (rowsBusy > 0 || performance.now() < rowsQuietUntil)) return;
    const tile = button.closest('.widget');
    button.setAttribute('aria-busy', 'true');
    if (row) rowsBusy++;
    try {
      const answer = await post('/api/designs/' + encodeURIComponent(tile.dataset.designId) + '/tap', {
        family: tile.dataset.family, x: Number(button.dataset.x), y: Number(button.dataset.y),
      });
      if (typeof answer.undo === 'string') {
        const figure = document.querySelector('.widget[data-design-id="' + CSS.escape(tile.dataset.designId) +
          '"][data-family="' + CSS.escape(tile.dataset.family) + '"]');
        showNotice(answer.message || 'Done', answer.undo, Number(answer.undoSeconds) || 8, figure, button);
      } else {
        say(answer.message || 'Done');
      }
      // An openURL button: the server checked the link (http, https or weaver: only); the
      // browser opens it, without access back to this page.
      const link = typeof answer.open === 'string' ? answer.open : '';
      if (['http://', 'https://', 'weaver:'].some((p) => link.toLowerCase().startsWith(p))) {
        window.open(link, '_blank', 'noopener,noreferrer');
      }
    } catch (e) {
      say('Could not do that: ' + e.message);
    } finally {
      button.removeAttribute('aria-busy');
      if (row) { rowsBusy--; quietRows(); }
    }
  });

  function swapTile(key, html) {
    const [id, family] = key.split('/');
    const old = document.querySelector('.widget[data-design-id="' + CSS.escape(id) + '"][data-family="' +
      CSS.escape(family) + '"]');
    if (!old) return false;
    const inside = document.activeElement && old.contains(document.activeElement) ? document.activeElement : null;
    const focused = inside ? inside.dataset.actionId : null;
    const index = inside ? [...old.querySelectorAll('button.hit')].indexOf(inside) : -1;
    const holder = document.createElement('div');
    holder.innerHTML = html;
    const fresh = holder.firstElementChild;
    old.replaceWith(fresh);
    // Focus still in this widget after an Undo by keyboard: onto the row taken back, once it is drawn.
    const wanted = inside && refocus && refocus.key === key ?
      fresh.querySelector('button.hit[data-action-id="' + CSS.escape(refocus.actionId) + '"]') : null;
    if (wanted) {
      refocus = null;
      wanted.focus();
    } else if (focused) {
      // The same button, or (a completed reminder's row gone) the one now in its place.
      const again = fresh.querySelector('button.hit[data-action-id="' + CSS.escape(focused) + '"]') ||
        fresh.querySelectorAll('button.hit')[index];
      if (again) again.focus();
    }
    return true;
  }

  // Mixer.
  const form = document.getElementById('mixer-form');
  const busy = new Map();      // control -> newest value not yet sent
  const inFlight = new Set();
  const held = new Set();      // controls the user is moving: incoming state leaves them alone

// @include colourname.js
  // A cut's slider has one position past its range (data-off, from the field table) meaning off.
  function isOff(control, v) { return control.dataset.off !== undefined && v === Number(control.dataset.off); }
  function offPosition(control) { return control ? Number(control.dataset.off) : 0; }
  function describe(control) {
    const v = Number(control.value);
    if (isOff(control, v)) return 'off';
    switch (control.dataset.param) {
      case 'master': case 'volume': case 'brightness': return Math.round(v * 100) + '%';
      case 'densityPerSecond': return v + ' per second';
      case 'colour': return colourName(v);
      case 'lowCutHz': case 'highCutHz': return v + ' Hz';
      default: return (v > 0 ? '+' : '') + v + ' dB';
    }
  }
  function showValue(control) {
    if (control.type !== 'range') return;
    const text = describe(control);
    control.setAttribute('aria-valuetext', text);
    const out = form.querySelector('output[for="' + control.id + '"]');
    if (out) out.textContent = text;
  }
  function bodyFor(control) {
    const p = control.dataset.param;
    if (p === 'preset') return { preset: control.value };
    if (p === 'timer') return { timerSeconds: control.value === '' ? null : Number(control.value) };
    if (p === 'master') return { param: 'master', value: Number(control.value) };
    if (control.tagName === 'SELECT') return { layer: Number(control.dataset.layer), param: p, value:
      control.value };
    let value = control.type === 'checkbox' ? control.checked : Number(control.value);
    if (control.type === 'range' && isOff(control, value)) value = 0;
    return { layer: Number(control.dataset.layer), param: p, value: value };
  }
  // Density applies to drops and crackle, brightness to crackle alone (as the page drew them).
  function textureChanged(n, kind) {
    const q = (p) => form.querySelector('[data-layer="' + n + '"][data-param="' + p + '"]');
    if (q('densityPerSecond')) q('densityPerSecond').disabled = kind === 'noise';
    if (q('brightness')) q('brightness').disabled = kind !== 'crackle';
  }
  async function send(control) {
    if (inFlight.has(control)) { busy.set(control, true); return; }
    inFlight.add(control);
    try {
      do {
        busy.delete(control);
        await post('/api/mixer', bodyFor(control));
      } while (busy.has(control));
    } catch (e) {
      say('Could not change ' + (control.labels && control.labels[0] ? control.labels[0].textContent.trim() :
        'that') + ': ' + e.message);
    } finally {
      inFlight.delete(control);
    }
  }
  if (form) {
    form.addEventListener('submit', (e) => e.preventDefault());
    form.addEventListener('input', (e) => { if (e.target.dataset.param) { showValue(e.target);
      if (e.target.type === 'range') send(e.target); } });
    form.addEventListener('change', (e) => {
      if (!e.target.dataset.param) return;
      if (e.target.dataset.param === 'texture') textureChanged(e.target.dataset.layer, e.target.value);
      showValue(e.target);
      send(e.target);
    });
    const hold = (e) => { if (e.target.dataset && e.target.dataset.param) held.add(e.target); };
    const release = () => { held.clear(); };
    form.addEventListener('pointerdown', hold);
    document.addEventListener('pointerup', release);
    document.addEventListener('pointercancel', release);
  }

  function applyMixer(state) {
    const summary = document.getElementById('mixer-state');
    if (summary) summary.textContent = state.summary;
    if (!form) return;
    const set = (control, value) => {
      if (!control || held.has(control) || inFlight.has(control)) return;
      if (control.type === 'checkbox') control.checked = !!value; else control.value = String(value);
      showValue(control);
    };
    set(form.querySelector('[data-param="master"]'), state.masterVolume);
    const preset = form.querySelector('[data-param="preset"]');
    if (preset && !held.has(preset) && state.presetID && [...preset.options].some((o) =>
      o.value === state.presetID)) preset.value = state.presetID;
    const left = document.getElementById('timer-left');
    if (left) left.textContent = state.timerRemainingSeconds == null ? '' :
      Math.floor(state.timerRemainingSeconds / 60) + ':' + String(state.timerRemainingSeconds % 60).padStart(2,
        '0') + ' left';
    for (let n = 1; n <= 4; n++) {
      const layer = state.layers[n - 1] || { enabled: false, volume: 0.8, colour: 1, eq: {
        lowDb: 0, midDb: 0, highDb: 0 } };
      const q = (p) => form.querySelector('[data-layer="' + n + '"][data-param="' + p + '"]');
      set(q('enabled'), layer.enabled);
      set(q('volume'), layer.volume);
      set(q('colour'), layer.colour);
      set(q('lowCutHz'), layer.lowCutHz == null ? offPosition(q('lowCutHz')) : layer.lowCutHz);
      set(q('highCutHz'), layer.highCutHz == null ? offPosition(q('highCutHz')) : layer.highCutHz);
      set(q('eqLowDb'), layer.eq.lowDb);
      set(q('eqMidDb'), layer.eq.midDb);
      set(q('eqHighDb'), layer.eq.highDb);
      const texture = q('texture');
      set(texture, layer.texture || 'noise');
      // Absent: the texture's own (the page carries the defaults from the field table).
      const kind = layer.texture || 'noise', density = q('densityPerSecond'), bright = q('brightness');
      if (density) set(density, layer.densityPerSecond != null ? layer.densityPerSecond
        : Number(kind === 'crackle' ? density.dataset.defaultCrackle : density.dataset.defaultDrops));
      if (bright) set(bright, layer.brightness != null ? layer.brightness :
        Number(bright.dataset.defaultCrackle));
      if (texture && !held.has(texture) && !inFlight.has(texture)) textureChanged(n, texture.value);
    }
  }

  // Live updates. EventSource reconnects by itself after a server restart; the new server has a
  // new token and maybe new widgets, so a reconnect reloads the home section in place.
  // A design added or deleted elsewhere (the server's `layout` event) takes the same path: the
  // home section is fetched again and swapped in, keeping the focused button where it still is.
  let connectedBefore = false;
  async function reloadHome() {
    try {
      const page = new DOMParser().parseFromString(await (await fetch('/')).text(), 'text/html');
      const home = page.getElementById('home');
      const old = document.getElementById('home');
      if (!home || !old) return;
      const focused = document.activeElement && old.contains(document.activeElement) ?
        document.activeElement.dataset.actionId : null;
      // The notice may sit inside the old section (after a widget): keep it, and the one page has.
      if (notice && old.contains(notice)) old.after(notice);
      old.replaceWith(home);
      if (focused) {
        const again = home.querySelector('button.hit[data-action-id="' + CSS.escape(focused) + '"]');
        if (again) again.focus();
      }
    } catch (err) { /* the next event will try again */ }
  }
  function connect() {
    const events = new EventSource('/events');
    events.addEventListener('hello', async (e) => {
      const hello = JSON.parse(e.data);
      if (connectedBefore && hello.token !== token) await reloadHome();
      token = hello.token;
      if (meta) meta.content = token;  // for the page's other scripts (board.js)
      connectedBefore = true;
      document.documentElement.dataset.live = 'connected';
    });
    events.addEventListener('widget', (e) => {
      const change = JSON.parse(e.data);
      swapTile(change.key, change.html);
    });
    events.addEventListener('layout', () => { reloadHome(); });
    events.addEventListener('mixer', (e) => {
      const state = JSON.parse(e.data);
      applyMixer(state);
      // The Noise page's board (board.js) follows the same changes.
      document.dispatchEvent(new CustomEvent('widgetweaver:mixer', { detail: state }));
    });
    events.addEventListener('error', () => { document.documentElement.dataset.live = 'reconnecting'; });
  }
  connect();
})();