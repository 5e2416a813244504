'use strict';
(() => {
// @include prelude.js
  restoreNotice();
  function on(selector, event, handler) {
    const node = $(selector);
    if (node) node.addEventListener(event, handler);
  }

  // Weather: a place by name (the ambiguous choices listed), or coordinates; then a refresh.
  async function setLocation(body) {
    try {
      const set = await call('POST', '/api/data/weather/location', body);
      let text = set.message;
      try { text += ' ' + (await call('POST', '/api/data/weather/refresh')).message; }
      catch (e) { reloadWith(text + ' Refresh failed: ' + e.message, { error: true }); return; }
      reloadWith(text);
    } catch (e) {
      const list = $('#place-choices');
      list.replaceChildren();
      if (e.answer && e.answer.choices) {
        notice(e.message);
        for (const c of e.answer.choices) {
          const li = document.createElement('li');
          const b = document.createElement('button');
          b.type = 'button'; b.className = 'btn'; b.dataset.pick = c.pick;
          b.textContent = `${c.label} (${c.latitude.toFixed(2)}, ${c.longitude.toFixed(2)})` + (c.population ?
            ` · ${c.population.toLocaleString()} people` : '');
          b.onclick = () => setLocation({ name: body.name, pick: c.pick });
          li.append(b); list.append(li);
        }
      } else notice(e.message, true);
    }
  }
  on('#weather-name', 'submit', (ev) => { ev.preventDefault(); setLocation({ name: ev.target.name.value }); });
  on('#weather-coordinates', 'submit', (ev) => {
    ev.preventDefault();
    setLocation({ latitude: Number(ev.target.latitude.value), longitude: Number(ev.target.longitude.value) });
  });
  on('#weather-refresh', 'click', async () => {
    try { reloadWith((await call('POST', '/api/data/weather/refresh')).message); } catch (e) {
      notice(e.message, true); }
  });
  on('#autorefresh-switch', 'change', async (ev) => {
    const wanted = ev.target.checked;
    ev.target.disabled = true;
    try {
      const a = await call('POST', '/api/data/weather/autorefresh', { on: wanted });
      reloadWith([a.message].concat(a.notes || []).join(' '));
    } catch (e) { ev.target.checked = !wanted; ev.target.disabled = false; notice(e.message, true); }
  });

  // Calendar and Reminders: a source by address (Reminders: or path), an uploaded file, remove,
  // refresh (each then refreshed). `kind` names the API and the elements (`#KIND-file`,
  // `[data-remove-KIND]`); `field` is the add form's input and the body's key.
  function sourceAnswer(a) { reloadWith([a.message].concat(a.notes || []).join(' ')); }
  function sourceSection(kind, addForm, field) {
    const api = '/api/data/' + kind;
    on(addForm, 'submit', async (ev) => {
      ev.preventDefault();
      try { sourceAnswer(await call('POST', api, { [field]: ev.target[field].value })); } catch (e) {
        notice(e.message, true); }
    });
    on(`#${kind}-file`, 'change', async (ev) => {
      const file = ev.target.files[0];
      ev.target.value = '';
      if (!file) return;
      try { sourceAnswer(await call('POST', api + '/upload?name=' + encodeURIComponent(file.name), file, true)); }
      catch (e) { notice(e.message, true); }
    });
    on(`#${kind}-refresh`, 'click', async () => {
      try { sourceAnswer(await call('POST', api + '/refresh')); } catch (e) { notice(e.message, true); }
    });
    document.addEventListener('click', async (ev) => {
      const remove = ev.target.closest(`[data-remove-${kind}]`);
      if (!remove) return;
      try { reloadWith((await call('DELETE', api + '/' +
        encodeURIComponent(remove.getAttribute(`data-remove-${kind}`)))).message); }
      catch (e) { notice(e.message, true); }
    });
  }
  sourceSection('calendar', '#calendar-url', 'url');
  sourceSection('reminders', '#reminders-source', 'source');

  // Steps: import a file, set the goal, pin a day.
  on('#steps-file', 'change', async (ev) => {
    const file = ev.target.files[0];
    ev.target.value = '';
    if (!file) return;
    try { reloadWith((await call('POST', '/api/data/steps/import?name=' + encodeURIComponent(file.name), file,
      true)).message); }
    catch (e) { notice(e.message, true); }
  });
  on('#steps-goal', 'submit', async (ev) => {
    ev.preventDefault();
    const body = { weekday: Number(ev.target.weekday.value) };
    if (ev.target.weekend.value) body.weekend = Number(ev.target.weekend.value);
    try { reloadWith((await call('POST', '/api/data/steps/goal', body)).message); } catch (e) {
      notice(e.message, true); }
  });
  for (const day of document.querySelectorAll('#steps-month .month-day')) {
    day.addEventListener('click', () => {
      const select = $('#pin-date');
      if (select && [...select.options].some(o => o.value === day.dataset.date)) {
        select.value = day.dataset.date; select.focus(); }
    });
  }
  on('#steps-pin', 'submit', async (ev) => {
    ev.preventDefault();
    try { notice((await call('POST', '/api/data/steps/pin', { date: ev.target.date.value })).message);
      } catch (e) { notice(e.message, true); }
  });
})();