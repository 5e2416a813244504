'use strict';
// Noise → Calibrate: the server plays every band through the output and keeps the calibration's state
// (`/api/hearing/calibration`); this sends what the person did (buttons or keys) and shows the answer.
(() => {
  const run = document.getElementById('run');
  if (!run) return;
  const $ = (id) => document.getElementById(id);
// @include request.js
  const say = (text, isError) => {
    const m = $('calibrate-message');
    m.textContent = text || '';
    m.classList.toggle('error', !!isError);
  };
  let state = null;
  let gain = 0;
  let busy = Promise.resolve();
  // One request at a time, in order: a fast run of key presses reaches the server as pressed.
  const queue = (work) => { busy = busy.then(work).catch((e) => say(e.message, true)); return busy; };
  const signed = (db) => (db > 0 ? '+' : db < 0 ? '\u2212' : '') + Math.abs(db) + ' dB';

  function showGain() {
    $('run-gain').textContent = signed(gain);
    const range = state && state.gainRange ? state.gainRange : [-40, 12];
    $('run-louder').disabled = gain >= range[1];
    $('run-softer').disabled = gain <= range[0];
  }

  function render(next) {
    const hadFocus = run.contains(document.activeElement) || document.activeElement === run;
    state = next;
    const select = $('calibrate-device');
    const chosen = select.value || state.inUse;
    select.replaceChildren(...state.devices.map((d) => {
      const o = document.createElement('option');
      o.value = d.name;
      const p = d.profile;
      o.textContent = d.description + ' (' + d.name + ')' +
        (p ? (p.complete ? ': calibrated' : ': unfinished, ' + p.bands + ' bands done') : '');
      return o;
    }));
    select.value = state.devices.some((d) => d.name === chosen) ? chosen : state.inUse;
    $('setup').hidden = !!state.active;
    run.hidden = !state.active;
    run.dataset.step = state.active && state.step ? String(state.step.centreHz) : '';
    run.dataset.pass = state.active && state.step ? String(state.step.pass || 0) : '';
    if (state.active) {
      $('run-device').textContent = state.device;
      $('run-prompt').textContent = state.step.prompt;
      $('run-progress').textContent = 'Answer ' + (state.answered + 1) + ' of ' + state.total;
      gain = state.gainDb;
      showGain();
      if (!hadFocus) run.focus();
    }
    if (state.message) say(state.message);
    showProfile();
  }

  function showProfile() {
    const device = state.active ? state.device : $('calibrate-device').value;
    const entry = state.devices.find((d) => d.name === device);
    const chart = $('profile-chart');
    const p = entry && entry.profile;
    $('profile-title').textContent = 'Saved profile of ' + device;
    if (!p) {
      $('profile-summary').textContent = 'No profile yet for this output.';
      chart.hidden = true;
      chart.removeAttribute('src');
      return;
    }
    let summary = (p.complete ? 'Calibrated' : 'Unfinished') + ', ' + p.bands + ' bands (' + p.mode + ')';
    if (p.retestSpreadDb !== undefined) summary += ', test-retest spread ' + p.retestSpreadDb.toFixed(1) + ' dB';
    $('profile-summary').textContent = summary + '.';
    chart.alt = 'Chart of the hearing profile of ' + device + ': gain in dB against frequency.';
    chart.src = '/noise/calibrate/chart.svg?device=' + encodeURIComponent(device) + '&t=' + Date.now();
    chart.hidden = false;
  }

  const refresh = () => call('GET', '/api/hearing/calibration').then(render);

  $('calibrate-device').addEventListener('change', () => { if (state) showProfile(); });
  $('calibrate-start').addEventListener('submit', (event) => {
    event.preventDefault();
    const body = {
      device: $('calibrate-device').value,
      level: Number($('calibrate-level').value),
      mode: $('calibrate-mode').value,
      retest: Number($('calibrate-retest').value),
      restart: $('calibrate-restart').checked,
    };
    say('Starting\u2026');
    queue(async () => {
      const a = await call('POST', '/api/hearing/calibration/start', body);
      render(a.calibration);
      run.focus();
    });
  });

  function move(deltaDb) {
    if (!state || !state.active) return;
    const range = state.gainRange;
    const next = Math.min(range[1], Math.max(range[0], gain + deltaDb * state.stepDb));
    if (next === gain) return;
    gain = next;
    showGain();
    queue(() => call('POST', '/api/hearing/calibration/gain', { gainDb: next }));
  }
  function accept() {
    if (!state || !state.active) return;
    const body = { gainDb: gain, centreHz: state.step.centreHz };
    queue(async () => {
      const a = await call('POST', '/api/hearing/calibration/accept', body);
      render(a.calibration);
      if (!a.calibration.active) { say(a.message); $('calibrate-go').focus(); }
    });
  }
  $('run-louder').addEventListener('click', () => move(1));
  $('run-softer').addEventListener('click', () => move(-1));
  $('run-same').addEventListener('click', accept);
  $('run-stop').addEventListener('click', () => queue(async () => {
    const a = await call('POST', '/api/hearing/calibration/stop', {});
    render(a.calibration);
    $('calibrate-go').focus();
  }));
  // The keys work wherever the focus is inside the calibration (Enter on a button too: its default click
  // is cancelled, so one press is one answer).
  run.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target === $('run-stop') && event.key === 'Enter') return;
    const keys = { ArrowUp: () => move(1), ArrowRight: () => move(1), ArrowDown: () => move(-1),
      ArrowLeft: () => move(-1), Enter: accept };
    const act = keys[event.key];
    if (!act) return;
    event.preventDefault();
    if (!event.repeat || event.key !== 'Enter') act();
  });
  refresh().catch((e) => say(e.message, true));
})();
