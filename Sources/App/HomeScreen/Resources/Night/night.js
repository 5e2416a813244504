'use strict';
(() => {
// @include prelude.js
  const section = $('#night');
  if (!section) return;
  const message = $('#night-message');
  const say = (text, isError) => {
    message.textContent = text;
    message.classList.toggle('error', !!isError);
  };

  // The schedule rows, built with the DOM from the server's summaries (no HTML strings).
  function renderSchedules(schedules) {
    const list = $('#night-schedules');
    list.replaceChildren();
    for (const s of schedules) {
      const row = document.createElement('li');
      row.dataset.scheduleId = s.id;
      row.classList.toggle('disabled', !s.enabled);
      const summary = document.createElement('span');
      summary.className = 'night-summary';
      summary.textContent = s.summary;
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.checked = s.enabled;
      box.dataset.action = 'enabled';
      box.setAttribute('aria-label', 'Enabled: the schedule at ' + s.time + ' (' + s.preset + ')');
      label.append(box, ' Enabled');
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.dataset.action = 'remove';
      remove.textContent = 'Remove';
      remove.setAttribute('aria-label', 'Remove the schedule at ' + s.time + ' (' + s.preset + ')');
      row.append(summary, label, remove);
      list.append(row);
    }
    $('#night-none').hidden = schedules.length > 0;
  }

  function render(state) {
    const timer = $('#night-timer-state');
    if (state.timer) timer.textContent = state.timer.summary;
    else timer.textContent = state.player === 'none' ? 'No player is running: start one to set a timer.' : 'No timer.';
    section.dataset.player = state.player;
    section.dataset.timerThen = state.timer && state.timer.then ? state.timer.then : '';
    renderSchedules(state.schedules);
    const systemd = $('#night-systemd');
    systemd.hidden = !state.systemd;
    systemd.textContent = state.systemd || '';
    section.dataset.ready = 'true';
  }

  async function refresh() {
    try { render(await call('GET', '/api/night')); } catch (err) { /* the next tick tries again */ }
  }

  async function act(path, body) {
    try {
      const answer = await call('POST', path, body);
      render(answer.state);
      say([answer.message].concat(answer.warnings || []).join(' '));
      return true;
    } catch (err) {
      say(err.message, true);
      return false;
    }
  }

  $('#night-timer').addEventListener('submit', (event) => {
    event.preventDefault();
    const body = { seconds: Number($('#night-minutes').value), fadeSeconds: Number($('#night-fade').value),
      then: $('#night-then').value };
    // A fade longer than the timer takes the whole timer, as `noise play --fade` does.
    body.fadeSeconds = Math.min(body.fadeSeconds, body.seconds);
    act('/api/night/timer', body);
  });
  $('#night-more').addEventListener('click', () => act('/api/night/timer/add', { seconds: 900 }));
  $('#night-off').addEventListener('click', () => act('/api/night/timer', { seconds: null }));

  $('#night-schedule').addEventListener('submit', (event) => {
    event.preventDefault();
    const timer = $('#night-schedule-timer').value;
    act('/api/night/schedules', {
      time: $('#night-time').value, preset: $('#night-preset').value,
      fadeSeconds: Number($('#night-schedule-fade').value), timerSeconds: timer === '' ? null : Number(timer),
      withoutSystemdSession: $('#night-anyway').checked,
    });
  });

  $('#night-schedules').addEventListener('click', (event) => {
    const button = event.target.closest('button[data-action="remove"]');
    if (!button) return;
    const id = button.closest('li').dataset.scheduleId;
    act('/api/night/schedules/' + encodeURIComponent(id) + '/remove', {});
  });
  $('#night-schedules').addEventListener('change', (event) => {
    const box = event.target.closest('input[data-action="enabled"]');
    if (!box) return;
    const id = box.closest('li').dataset.scheduleId;
    act('/api/night/schedules/' + encodeURIComponent(id) + '/enabled', { enabled: box.checked });
  });

  refresh();
  // The timer counts down and other tools change the night: read it again now and then.
  setInterval(() => { if (!document.hidden) refresh(); }, 5000);
})();
