'use strict';
// The Noise page's board of sounds, its mix and presets, and opening a shared mix link. Every decision is the
// server's (`/api/board`, `/api/presets`, `/api/share`); this sends what the person did and shows the answer.
(() => {
  if (!document.getElementById('board')) return;
// @include boardlogic.js
  const $ = (s, r = document) => r.querySelector(s);
// @include request.js
// @include element.js
  let board = null;
  const held = new Set();       // sliders the person is moving: incoming state leaves them alone
  const inFlight = new Map();   // slider -> newest value not yet sent (one request at a time each)
  const say = (text, isError) => {
    const live = document.getElementById('live');
    if (live) { live.textContent = text; live.classList.toggle('error', !!isError); }
  };
  const cards = () => [...document.querySelectorAll('.sound-card')];
  const cardOf = (id) => document.querySelector('.sound-card[data-sound="' + CSS.escape(id) + '"]');

  function applyBoard(state) {
    board = state;
    const playing = cardStates(state);
    for (const card of cards()) {
      const id = card.dataset.sound;
      const p = playing[id];
      const toggle = card.querySelector('.sound-toggle');
      const slider = card.querySelector('.sound-volume');
      toggle.setAttribute('aria-pressed', p ? 'true' : 'false');
      card.classList.toggle('playing', !!p);
      slider.disabled = !p;
      if (p) slider.dataset.layer = String(p.layer); else delete slider.dataset.layer;
      if (p && !held.has(slider) && !inFlight.has(slider)) {
        slider.value = String(p.volume);
        slider.setAttribute('aria-valuetext', percent(p.volume));
      }
    }
    $('#board-state').textContent = summaryLine(state);
    $('#board-loudness').textContent = loudnessText(state);
    const play = $('#board-play');
    play.textContent = state.state === 'playing' ? 'Pause' : 'Play';
    play.dataset.action = state.state === 'playing' ? 'pause' : 'play';
    const list = $('#mix-layers');
    list.replaceChildren();
    const layers = playingLayers(state);
    if (!layers.length) list.append(el('li', { class: 'muted' }, 'No sounds yet: tap one below.'));
    for (const l of layers) {
      const li = el('li', { 'data-layer': String(l.layer) });
      li.append(el('span', { class: 'layer-name', dir: 'auto' }, l.name), el('span', { class: 'muted' },
        ' ' + percent(l.volume)));
      const remove = el('button', { type: 'button', class: 'btn ghost small', 'aria-label': 'Remove ' + l.name },
        'Remove');
      remove.dataset.removeLayer = String(l.layer);
      if (l.sound) remove.dataset.removeSound = l.sound;
      li.append(remove);
      list.append(li);
    }
    const presets = $('#preset-list');
    presets.replaceChildren();
    for (const p of state.presets) {
      const li = el('li', { class: p.user ? 'user-preset' : '' });
      const chip = el('button', { type: 'button', class: 'chip', 'aria-pressed': String(p.id === state.presetID) },
        p.name);
      chip.dataset.preset = p.id;
      li.append(chip);
      if (p.user) {
        const rename = el('button', { type: 'button', class: 'btn ghost small', 'aria-label': 'Rename ' + p.name },
          'Rename');
        rename.dataset.rename = p.id;
        rename.dataset.name = p.name;
        const del = el('button', { type: 'button', class: 'btn ghost small', 'aria-label': 'Delete ' + p.name },
          'Delete');
        del.dataset.delete = p.id;
        li.append(rename, del);
      }
      presets.append(li);
    }
    document.documentElement.dataset.board = 'ready';
  }

  async function refresh() {
    try { applyBoard((await call('GET', '/api/board')).board); } catch (e) { /* the next event tries again */ }
  }
  async function change(method, path, body) {
    try {
      const answer = await call(method, path, body);
      if (answer.board) applyBoard(answer.board);
      if (answer.message) say(answer.message);
      return answer;
    } catch (e) {
      say(e.message, true);
      throw e;
    }
  }

  // Cards: a tap adds the sound, or takes it out; a fifth asks which layer it replaces.
  function askReplace(id) {
    const card = cardOf(id);
    const box = $('#replace');
    $('#replace-sound').textContent = card.querySelector('.sound-name').textContent;
    const choices = $('#replace-choices');
    choices.replaceChildren();
    for (const c of replaceChoices(board)) {
      const b = el('button', { type: 'button', class: 'btn' }, 'Replace ' + c.label);
      b.dataset.replaceLayer = String(c.layer);
      b.dataset.sound = id;
      choices.append(b);
    }
    box.hidden = false;
    box.dataset.sound = id;
    choices.querySelector('button').focus();
  }
  function closeReplace() {
    const box = $('#replace');
    const id = box.dataset.sound;
    box.hidden = true;
    const card = id && cardOf(id);
    if (card) card.querySelector('.sound-toggle').focus();
  }

  document.addEventListener('click', async (event) => {
    const t = event.target;
    const toggle = t.closest('.sound-toggle');
    if (toggle) {
      const id = toggle.closest('.sound-card').dataset.sound;
      if (toggle.getAttribute('aria-pressed') === 'true') {
        await change('POST', '/api/board/remove', { sound: id }).catch(() => {});
      } else if (board && isFull(board)) {
        askReplace(id);
      } else {
        try { await change('POST', '/api/board/add', { sound: id }); } catch (e) {
          if (e.answer && e.answer.field === 'replaceLayer') { await refresh(); askReplace(id); }
        }
      }
      return;
    }
    const replace = t.closest('[data-replace-layer]');
    if (replace) {
      await change('POST', '/api/board/add', { sound: replace.dataset.sound,
        replaceLayer: Number(replace.dataset.replaceLayer) }).catch(() => {});
      closeReplace();
      return;
    }
    if (t.closest('#replace-cancel')) { closeReplace(); return; }
    const remove = t.closest('[data-remove-layer]');
    if (remove) {
      if (remove.dataset.removeSound) {
        await change('POST', '/api/board/remove', { sound: remove.dataset.removeSound }).catch(() => {});
      } else {
        await change('POST', '/api/mixer', { layer: Number(remove.dataset.removeLayer), param: 'enabled',
          value: false }).catch(() => {});
        refresh();
      }
      return;
    }
    if (t.closest('#board-play')) {
      await change('POST', '/api/board/' + ($('#board-play').dataset.action || 'play'), {}).catch(() => {});
      return;
    }
    const preset = t.closest('[data-preset]');
    if (preset) {
      await change('POST', '/api/mixer', { preset: preset.dataset.preset }).catch(() => {});
      refresh();
      return;
    }
    const rename = t.closest('[data-rename]');
    if (rename) { startRename(rename); return; }
    const del = t.closest('[data-delete]');
    if (del) {
      // Two presses: the first asks, the second deletes (within five seconds).
      if (del.dataset.armed !== 'true') {
        del.dataset.armed = 'true';
        del.textContent = 'Press again to delete';
        setTimeout(() => { if (del.isConnected) { del.dataset.armed = ''; del.textContent = 'Delete'; } }, 5000);
        return;
      }
      await change('DELETE', '/api/presets/' + encodeURIComponent(del.dataset.delete)).catch(() => {});
      return;
    }
    if (t.closest('#shared-play')) {
      const link = $('#shared').dataset.link;
      await change('POST', '/api/share/play', { link }).catch(() => {});
      return;
    }
    if (t.closest('#shared-dismiss')) {
      $('#shared').hidden = true;
      if (location.hash.startsWith('#ww')) history.replaceState(null, '', location.pathname);
    }
  });

  function startRename(button) {
    const li = button.closest('li');
    const id = button.dataset.rename;
    const form = el('form', { class: 'inline-form rename-form' });
    const label = el('label', { for: 'rename-' + id }, 'New name for ' + button.dataset.name);
    const input = el('input', { type: 'text', id: 'rename-' + id, maxlength: '200', required: '' });
    input.value = button.dataset.name;
    const save = el('button', { type: 'submit', class: 'btn' }, 'Rename');
    const cancel = el('button', { type: 'button', class: 'btn ghost' }, 'Cancel');
    form.append(label, input, save, cancel);
    li.replaceChildren(form);
    input.focus();
    input.select();
    cancel.addEventListener('click', () => applyBoard(board));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      try {
        await change('POST', '/api/presets/' + encodeURIComponent(id) + '/rename', { name: input.value });
      } catch (err) { input.setAttribute('aria-invalid', 'true'); }
    });
  }

  // Volume sliders: the newest value wins, one request in flight per slider.
  async function sendVolume(slider) {
    if (inFlight.has(slider)) { inFlight.set(slider, true); return; }
    inFlight.set(slider, false);
    try {
      do {
        inFlight.set(slider, false);
        await call('POST', '/api/mixer', { layer: Number(slider.dataset.layer), param: 'volume',
          value: Number(slider.value) });
      } while (inFlight.get(slider));
    } catch (e) {
      say('Could not change the volume: ' + e.message, true);
    } finally {
      inFlight.delete(slider);
    }
  }
  document.addEventListener('input', (e) => {
    const slider = e.target.closest && e.target.closest('.sound-volume');
    if (!slider || !slider.dataset.layer) return;
    slider.setAttribute('aria-valuetext', percent(slider.value));
    sendVolume(slider);
  });
  document.addEventListener('pointerdown', (e) => {
    const slider = e.target.closest && e.target.closest('.sound-volume');
    if (slider) held.add(slider);
  });
  const release = () => { held.clear(); };
  document.addEventListener('pointerup', release);
  document.addEventListener('pointercancel', release);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !$('#replace').hidden) closeReplace();
  });

  // Presets.
  $('#save-preset').addEventListener('submit', async (e) => {
    e.preventDefault();
    const input = $('#preset-name');
    try {
      await change('POST', '/api/presets', { name: input.value });
      input.value = '';
      input.removeAttribute('aria-invalid');
    } catch (err) { input.setAttribute('aria-invalid', 'true'); }
  });

  // Shared links: read by the server (ShareLinks' strict reader); nothing plays until Play is pressed.
  async function openLink(link) {
    const box = $('#shared');
    const error = $('#shared-error');
    box.hidden = false;
    box.dataset.link = link;
    try {
      const s = await call('POST', '/api/share/open', { link });
      error.hidden = true;
      $('#shared-mix').hidden = false;
      $('#shared-name').textContent = s.name;
      $('#shared-description').textContent = s.description;
      const list = $('#shared-layers');
      list.replaceChildren();
      for (const l of s.layers.filter((x) => x.enabled)) {
        list.append(el('li', {}, l.name + ' ' + percent(l.volume)));
      }
      $('#shared-loudness').textContent = 'Predicted loudness: ' + (s.loudnessLufs == null ? 'silent' :
        lufs(s.loudnessLufs)) + '. Nothing plays until you press Play.';
      box.dataset.mix = JSON.stringify(s.mix);
      $('#shared-play').focus();
    } catch (e) {
      $('#shared-mix').hidden = true;
      error.hidden = false;
      error.textContent = 'This link cannot be opened: ' + e.message;
    }
  }
  $('#open-link').addEventListener('submit', (e) => {
    e.preventDefault();
    openLink($('#link-input').value);
  });
  window.addEventListener('hashchange', () => { const l = linkInHash(location.hash); if (l) openLink(l); });

  // Live: the home script passes each mixer event on; the board asks for its own view of it.
  let pending = null;
  document.addEventListener('widgetweaver:mixer', () => {
    clearTimeout(pending);
    pending = setTimeout(refresh, 120);
  });

  refresh();
  const first = linkInHash(location.hash);
  if (first) openLink(first);
})();
