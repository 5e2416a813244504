import Hummingbird
import NIOCore

/// The script and sheet of Explore, the Library (with its Import Review) and the Data pages.
/// Every action is one request to the API; the page then reloads its list from the server, so
/// what it shows is what the store holds.
struct PageAssetRoutes: AppRoutes {
    func register(on router: Router<BasicRequestContext>) {
        router.get("/static/pages.css") { _, _ in Routes.body(LibraryAssets.css, type: "text/css; charset=utf-8") }
        router.get("/static/library.js") { _, _ in Routes.body(LibraryAssets.js, type: "text/javascript; charset=utf-8")
        }
        router.get("/static/data.js") { _, _ in Routes.body(DataAssets.js, type: "text/javascript; charset=utf-8") }
    }
}

enum LibraryAssets {
    static let css = """
        .page-head { display: flex; flex-wrap: wrap; align-items: end; justify-content: space-between; gap: 12px; }
        .page-tools { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
        .page-tools input[type=search] { width: 240px; }
        .file-button { position: relative; overflow: hidden; }
        .file-button input[type=file] { position: absolute; inset: 0; opacity: 0; cursor: pointer; }
        .notice { display: flex; align-items: center; gap: 10px; padding: 10px 14px; border-radius: var(--radius-s);
          background: var(--accent-soft); border: 1px solid var(--line); margin: 0 0 14px; }
        /* The shell's buttons and notices set display; an element hidden by the script must stay hidden. */
        main [hidden] { display: none !important; }
        .data-card input[type=url] { font: inherit; font-size: 14px; color: var(--fg); background: var(--surface);
          border: 1px solid var(--line-strong);
          border-radius: var(--radius-s); padding: 7px 10px; min-height: 36px; flex: 1 1 160px; }
        .setup-grid { align-items: start; }
        .notice.error { background: var(--danger-soft); color: var(--danger); }
        .drop-zone { border: 2px dashed var(--line-strong); border-radius: var(--radius); padding: 14px;
          text-align: center; color: var(--muted); margin: 0 0 18px; }
        .drop-zone.over { border-color: var(--accent); background: var(--accent-soft); color: var(--fg); }
        .btn.danger { color: var(--danger); }
        .btn.danger:hover { border-color: var(--danger); }
        .library-grid { list-style: none; padding: 0; margin: 0; display: grid;
          grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 16px; }
        .design-card { padding: 14px; display: flex; flex-direction: column; gap: 10px; }
        .design-card[hidden] { display: none; }
        .design-picture { width: 170px; height: 170px; align-self: center; border-radius: 22px; }
        .design-name { font-size: 17px; margin: 0; overflow-wrap: anywhere; }
        .design-meta p { margin: 2px 0 6px; font-size: 13px; }
        .design-actions { display: flex; flex-wrap: wrap; gap: 6px; }
        .design-actions .btn { padding: 5px 10px; min-height: 30px; font-size: 13px; }
        .default-pill { background: var(--accent); color: var(--accent-fg); }
        .import-review { padding: 16px 18px; margin: 0 0 20px; }
        .import-review h2 { margin: 0 0 4px; font-size: 19px; }
        .review-list { list-style: none; padding: 0; margin: 12px 0; display: grid; gap: 8px; }
        .review-list li { display: grid; grid-template-columns: auto 84px 1fr; gap: 12px; align-items: center;
          padding: 8px; border-radius: var(--radius-s); background: var(--card-2); }
        .review-list img { width: 84px; height: 84px; border-radius: 14px; }
        .review-list .muted { font-size: 13px; }
        .review-actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
        .review-warning { color: var(--warn); font-weight: 600; }
        .setup-grid { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill,
          minmax(220px, 1fr)); gap: 12px; }
        .setup-card { padding: 14px; }
        .setup-card h3 { margin: 0 0 4px; }
        .setup-state.ok { color: var(--ok); } .setup-state.error { color: var(--danger); } .setup-state.unconfigured {
          color: var(--muted); }
        .template-card { padding: 16px; margin: 0 0 16px; }
        .template-head { display: flex; justify-content: space-between; gap: 12px; align-items: start; }
        .template-head h3 { margin: 0 0 4px; }
        .template-head p { margin: 0 0 10px; }
        .template-sizes { display: flex; flex-wrap: wrap; gap: 14px; align-items: end; }
        .template-sizes img { border-radius: 22px; }
        .explore-small { width: 170px; height: 170px; } .explore-medium { width: 364px; height: 170px;
          } .explore-large { width: 364px; height: 382px; }
        .remix-title { margin: 14px 0 6px; font-size: 14px; color: var(--muted); }
        .remix-row { list-style: none; padding: 0; margin: 0; display: flex; gap: 12px; overflow-x: auto; }
        .remix { display: flex; flex-direction: column; align-items: center; gap: 6px; font-size: 13px; }
        .remix img { width: 120px; height: 120px; border-radius: 18px; }
        .data-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); gap: 16px; }
        .data-card { padding: 16px; }
        .data-card h2 { margin: 0 0 6px; font-size: 19px; }
        .data-card form, .data-card .row { display: flex; flex-wrap: wrap; gap: 8px; margin: 8px 0;
          align-items: center; }
        .data-card form input { flex: 1 1 160px; width: auto; }
        .data-card .field { display: flex; align-items: center; gap: 8px; flex: 1 1 180px; }
        .data-card .field label { white-space: nowrap; }
        .data-card .field input { min-width: 0; }
        .data-card ul { padding-left: 18px; }
        .data-card table { border-collapse: collapse; width: 100%; font-size: 13px; }
        .data-card td, .data-card th { text-align: left; padding: 4px 6px; border-bottom: 1px solid var(--line); }
        .choices { list-style: none; padding: 0; display: grid; gap: 6px; }
        .chart { width: 100%; height: auto; background: var(--card-2); border-radius: var(--radius-s); }
        .chart text { fill: var(--muted); font: 11px var(--font); }
        .insights { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 10px;
          list-style: none; padding: 0; }
        .insights li { padding: 10px 12px; border-radius: var(--radius-s); background: var(--card-2); }
        .insights b { display: block; font-size: 20px; }
        """

    static let js = #"""
        'use strict';
        (() => {
        \#(PageScript.prelude)
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
          function el(tag, attrs, text) {
            const node = document.createElement(tag);
            for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
            if (text !== undefined) node.textContent = text;
            return node;
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
              text.append(el('b', {}, d.name), el('br'),
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
            bar.append(all, none, go, cancel);
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
        """#
}
