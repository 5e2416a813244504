'use strict';
(() => {
// @include prelude.js
// @include element.js
  const kept = restoreNotice();
  if (kept && kept.undo) offerUndo(kept.undo);

  function offerUndo(path) {
    const undo = $('#undo-delete');
    if (!undo) return;
    undo.hidden = false;
    undo.onclick = async () => {
      try { const a = await call('POST', path); reloadWith(a.message); } catch (e) { notice(e.message, true); }
    };
  }

  // Explore: Add to Library (a template, or one of its remixes).
  document.addEventListener('click', async (event) => {
    const add = event.target.closest('[data-add-template]');
    if (add) {
      const body = { template: add.dataset.addTemplate };
      if (add.dataset.addRemix) body.remix = add.dataset.addRemix;
      if (add.dataset.addSeed) { body.seed = add.dataset.addSeed;
        body.variant = Number(add.dataset.addVariant); }
      add.disabled = true;
      try { const a = await call('POST', '/api/library/add', body); notice(a.message + ' ');
        add.dataset.addedId = a.id; }
      catch (e) { notice(e.message, true); }
      finally { add.disabled = false; }
      return;
    }
    const act = event.target.closest('button[data-act]');
    if (!act) return;
    const card = act.closest('[data-design-id]');
    const id = card.dataset.designId;
    try {
      switch (act.dataset.act) {
        case 'default': reloadWith((await call('POST', `/api/library/${id}/default`)).message); break;
        case 'duplicate': reloadWith((await call('POST', `/api/library/${id}/duplicate`)).message); break;
        case 'rename': {
          const name = prompt('New name', card.dataset.name);
          if (name === null) return;
          reloadWith((await call('POST', `/api/library/${id}/rename`, { name })).message);
          break;
        }
        case 'delete': {
          const a = await call('DELETE', `/api/library/${id}`);
          reloadWith(a.message, { undo: a.undo });
          break;
        }
      }
    } catch (e) { notice(e.message, true); }
  });

  // Library search: the server's search (as 'weaver designs list --search'), applied to the cards.
  const search = $('#library-search');
  if (search) {
    let pending = 0;
    search.addEventListener('input', async () => {
      const mine = ++pending;
      const answer = await call('GET', '/api/library?search=' + encodeURIComponent(search.value));
      if (mine !== pending) return;
      const shown = new Set(answer.designs.map(d => d.id));
      for (const card of document.querySelectorAll('#library [data-design-id]'))
        card.hidden = !shown.has(card.dataset.designId);
      $('#live').textContent = `${answer.designs.length} design${answer.designs.length === 1 ? '' : 's'} shown`;
    });
  }

  // Import Review: upload (picker or drop), review, import the ticked designs.
  const review = $('#import-review');
  async function upload(file) {
    if (!review) return;
    try {
      const answer = await call('POST', '/api/import?name=' + encodeURIComponent(file.name), file, true);
      showReview(answer);
    } catch (e) { review.hidden = true; notice(e.message, true); }
  }
  function showReview(r) {
    review.replaceChildren();
    review.hidden = false;
    review.dataset.reviewId = r.reviewId;
    review.append(el('h2', { id: 'review-title' }, 'Import Review'));
    review.append(el('p', { class: 'muted review-file' }, r.fileName + ' · ' + r.designs.length + ' design' +
      (r.designs.length === 1 ? '' : 's')));
    for (const line of r.findings.concat(r.notes)) review.append(el('p', { class: 'muted' }, line));
    const list = el('ul', { class: 'review-list' });
    const chosen = new Set(r.defaultSelection);
    for (const d of r.designs) {
      const li = el('li', { 'data-index': d.index });
      const box = el('input', { type: 'checkbox', id: 'pick-' + d.index, 'aria-label': 'Import ' + d.name });
      box.checked = chosen.has(d.index);
      const img = el('img', { src: `/api/import/${r.reviewId}/${d.index}.svg?family=small`, alt: d.name +
        ', drawn small' });
      const text = el('label', { for: 'pick-' + d.index });
      text.append(el('b', {}, d.name), el('br'));
      // Already in the Library (an export of it, say): marked, and left unticked unless chosen.
      if (d.inLibrary) text.append(el('span', { class: 'pill in-library' }, 'Already in your Library'), ' ');
      text.append(
        el('span', { class: 'muted' }, `${d.templateName} · updated ${d.updatedAt.slice(0, 16).replace('T',
          ' ')} UTC · ${d.hasImage ? 'has an image' : 'no image'}`));
      li.append(box, img, text);
      list.append(li);
    }
    review.append(list);
    const bar = el('div', { class: 'review-actions' });
    const all = el('button', { type: 'button', class: 'btn', id: 'select-all' }, 'Select all');
    const none = el('button', { type: 'button', class: 'btn', id: 'select-none' }, 'Select none');
    const go = el('button', { type: 'button', class: 'btn primary', id: 'import-selected' }, 'Import');
    const cancel = el('button', { type: 'button', class: 'btn ghost', id: 'import-cancel' }, 'Cancel');
    const warning = el('p', { class: 'review-warning', id: 'review-warning', role: 'alert' });
    const slots = el('p', { class: 'muted', id: 'review-slots' },
      r.freeSlots === null ? 'Pro: unlimited designs.' : `Free tier: ${r.freeSlots} of 3 slots left.`);
    bar.append(all, none);
    if (r.designs.some(d => d.inLibrary)) {
      const skip = el('button', { type: 'button', class: 'btn', id: 'skip-in-library' },
        'Skip those already in the Library');
      skip.addEventListener('click', () => {
        for (const b of boxes()) if (r.designs[Number(b.closest('li').dataset.index)].inLibrary) b.checked = false;
        update();
      });
      bar.append(skip);
    }
    bar.append(go, cancel);
    review.append(slots, bar, warning);
    const boxes = () => [...list.querySelectorAll('input[type=checkbox]')];
    function update() {
      const n = boxes().filter(b => b.checked).length;
      go.textContent = n ? `Import ${n}` : 'Import';
      const over = r.freeSlots !== null && n > r.freeSlots;
      go.disabled = n === 0 || over;
      warning.replaceChildren();
      if (over) {
        warning.append(`${n} designs selected but the free tier has ${r.freeSlots} slot${r.freeSlots === 1 ?
          '' : 's'} left. Select at most ${r.freeSlots}, or unlock Pro for unlimited designs: `);
        warning.append(el('code', { class: 'pro-shortcut' }, 'weaver pro unlock'));
      }
    }
    list.addEventListener('change', update);
    all.onclick = () => { boxes().forEach(b => b.checked = true); update(); };
    none.onclick = () => { boxes().forEach(b => b.checked = false); update(); };
    cancel.onclick = () => { review.hidden = true; review.replaceChildren(); };
    go.onclick = async () => {
      const select = boxes().filter(b => b.checked).map(b => Number(b.closest('li').dataset.index));
      try { reloadWith((await call('POST', `/api/import/${r.reviewId}`, { select })).message); }
      catch (e) { notice(e.message, true); }
    };
    update();
    review.scrollIntoView({ block: 'nearest' });
  }
  const picker = $('#import-file');
  if (picker) picker.addEventListener('change', () => { if (picker.files[0]) upload(picker.files[0]);
    picker.value = ''; });
  const zone = $('#drop-zone');
  if (zone) {
    for (const name of ['dragenter', 'dragover']) zone.addEventListener(name, (e) => { e.preventDefault();
      zone.classList.add('over'); });
    zone.addEventListener('dragleave', () => zone.classList.remove('over'));
    zone.addEventListener('drop', (e) => {
      e.preventDefault(); zone.classList.remove('over');
      if (e.dataTransfer.files[0]) upload(e.dataTransfer.files[0]);
    });
  }
})();