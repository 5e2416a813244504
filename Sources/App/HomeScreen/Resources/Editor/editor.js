'use strict';
(() => {
  const meta = document.querySelector('meta[name="widgetweaver-token"]');
  const token = meta ? meta.content : '';
  const live = document.getElementById('live');
  const say = (text) => { if (live) live.textContent = text; };

  async function call(method, path, body) {
    const init = { method, headers: {} };
    if (method !== 'GET') init.headers['X-WidgetWeaver-Token'] = token;
    if (body !== undefined) { init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body); }
    const response = await fetch(path, init);
    let answer = {};
    try { answer = await response.json(); } catch (e) { answer = {}; }
    if (!response.ok) {
      const error = new Error(answer.error || ('HTTP ' + response.status));
      error.field = answer.field; error.errors = answer.errors; error.status = response.status;
      throw error;
    }
    return answer;
  }

  // The chooser: a new design from a template.
  const newForm = document.getElementById('new-design');
  if (newForm) {
    newForm.addEventListener('submit', async (event) => {
      event.preventDefault();
      const error = document.getElementById('new-error');
      error.textContent = '';
      try {
        const answer = await call('POST', '/api/designs', { template: newForm.elements.template.value, name:
          newForm.elements.name.value });
        location.assign(answer.editor);
      } catch (e) { error.textContent = e.message; }
    });
  }

  const root = document.getElementById('editor');
  if (!root) return;
  const id = root.dataset.designId;
  const form = document.getElementById('controls');
  const families = ['small', 'medium', 'large', 'circular', 'rectangular', 'inline'];
  const groupOrder = ['Text', 'Layout', 'Style', 'Symbol', 'Image', 'Actions', 'Matched set', 'Clock',
    'Weather'];
  let fields = [];
  let design = null;          // the draft, as the server holds it
  let savedText = '';         // the saved design's JSON, to tell unsaved changes
  let saved = null;
  let pro = false;
  let variables = [];
  let symbols = [];
  let swatches = {};
  const undoStack = [];
  const redoStack = [];
  let busy = Promise.resolve();

// @include editorlogic.js

  // MARK: Building the controls from the field table.
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'text') node.textContent = v; else if (k === 'dataset') Object.assign(node.dataset, v);
        else node.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children) if (c) node.append(c);
    return node;
  }
  function labelFor(field, forId) {
    const label = el('label', { for: forId, text: field.label });
    if (field.pro) label.append(el('span', { class: 'pill pro', text: 'Pro', title: 'Needs Pro' }));
    return label;
  }
  function fieldShell(field, control, extra) {
    const wrap = el('div', { class: 'field', dataset: { fieldRow: field.key } });
    wrap.append(labelFor(field, slug(field.key)), control);
    if (extra) wrap.append(extra);
    const helpId = slug(field.key) + '-help';
    const parts = [];
    if (field.help) parts.push(field.help);
    if (field.min !== undefined && field.max !== undefined) parts.push('Allowed ' + field.min + '–' +
      field.max + (field.unit ? ' ' + field.unit : '') + '.');
    const help = el('p', { class: 'help', id: helpId, text: parts.join(' ') });
    const error = el('p', { class: 'field-error', id: slug(field.key) + '-error', role: 'alert', dataset: {
      errorFor: field.key } });
    const notice = el('p', { class: 'notice', dataset: { noticeFor: field.key } });
    wrap.append(error, notice);
    if (field.template) wrap.append(el('p', { class: 'resolved', dataset: {
      resolvedFor: field.key }, 'aria-live': 'polite' }));
    wrap.append(help);
    const target = wrap.querySelector('[data-field]');
    if (target) target.setAttribute('aria-describedby', helpId + ' ' + error.id);
    return wrap;
  }
  function numberControl(field) {
    const row = el('div', { class: 'number-row' });
    const attrs = { type: 'number', id: slug(field.key), min: field.min, max: field.max,
                    step: field.step || (field.type === 'integer' ? 1 : 'any'),
                    dataset: { field: field.key },
                    inputmode: field.type === 'integer' ? 'numeric' : 'decimal' };
    const box = el('input', attrs);
    if (field.min !== undefined && field.max !== undefined) {
      const range = el('input', { type: 'range', min: field.min, max: field.max, step: field.step ||
        (field.type === 'integer' ? 1 : (field.max - field.min) / 100),
                                  'aria-label': field.label + ' slider', tabindex: '-1', dataset: {
                                    rangeFor: field.key } });
      row.append(range);
    }
    row.append(box);
    return row;
  }
  function choiceControl(field) {
    const colours = swatches[field.key];
    if (colours && (field.allowed || []).every((v) => colours[v])) {
      const set = el('div', { class: 'swatches', role: 'radiogroup', id: slug(field.key), 'aria-label':
        field.label, dataset: { field: field.key, kind: 'swatches' } });
      for (const v of field.allowed) {
        const input = el('input', { type: 'radio', name: slug(field.key), value: v, 'aria-label': v,
          title: v });
        const face = el('span', { 'aria-hidden': 'true', dataset: { swatchFor: field.key, swatch: v } });
        face.style.background = colours[v];
        set.append(el('label', { class: 'swatch' }, input, face));
      }
      return set;
    }
    const select = el('select', { id: slug(field.key), dataset: { field: field.key } });
    if (field.slot !== undefined && field.key.endsWith('.kind')) select.append(el('option', {
      value: '', text: '(no button)' }));
    else if (field.optional) select.append(el('option', { value: '', text: '(none)' }));
    for (const v of field.allowed || []) select.append(el('option', { value: v, text: choiceText(field.key, v) }));
    return select;
  }
  function textControl(field) {
    const long = (field.maxLength || 0) > 200;
    const input = el(long ? 'textarea' : 'input', { id: slug(field.key),
                                                    dataset: { field: field.key, live: 'true' },
                                                    maxlength: field.maxLength, rows: long ? 2 : undefined,
                                                    type: long ? undefined : 'text', spellcheck: 'false' });
    if (!field.template) return input;
    input.setAttribute('aria-autocomplete', 'list');
    const list = el('ul', { class: 'completions', role: 'listbox', id: slug(field.key) + '-keys', hidden: true,
      'aria-label': 'Variables' });
    input.setAttribute('aria-controls', list.id);
    return el('div', { class: 'text-wrap' }, input, list);
  }
  function symbolControl(field) {
    const wrap = el('div', { class: 'symbol-picker' });
    const input = el('input', { type: 'search', id: slug(field.key), dataset: {
      field: field.key }, list: slug(field.key) + '-names', placeholder: 'Search symbols' });
    const names = el('datalist', { id: slug(field.key) + '-names' });
    for (const s of symbols) names.append(el('option', { value: s.name }));
    const grid = el('div', { class: 'symbol-grid', role: 'group', 'aria-label': 'Symbols' });
    for (const s of symbols) {
      grid.append(el('button', { type: 'button', title: s.name, 'aria-label': s.name, 'aria-pressed': 'false',
        dataset: { symbol: s.name } },
                     el('span', { class: 'glyph', 'aria-hidden': 'true', text: s.glyph })));
    }
    input.addEventListener('input', () => {
      const q = input.value.trim().toLowerCase();
      for (const b of grid.children) b.hidden = q !== '' && !b.dataset.symbol.includes(q);
    });
    wrap.append(input, names, grid);
    return wrap;
  }
  function control(field) {
    switch (field.type) {
      case 'number': case 'integer': return numberControl(field);
      case 'choice': return choiceControl(field);
      case 'flag': return el('input', { type: 'checkbox', id: slug(field.key), dataset: { field: field.key } });
      case 'symbol': return symbolControl(field);
      case 'date': return el('input', { type: 'date', id: slug(field.key), dataset: { field: field.key } });
      case 'image': return imageControl(field);
      default: return textControl(field);
    }
  }
  function imageControl(field) {
    // A picture is uploaded (PNG or JPEG; the server checks the size from the header before
    // decoding and scales a large photo down), then named in the design like any other value.
    const wrap = el('div', { class: 'image-row' });
    const name = el('input', { type: 'text', id: slug(field.key), dataset: {
      field: field.key }, placeholder: 'a picture in the store' });
    const file = el('input', { type: 'file', accept: 'image/png,image/jpeg', 'aria-label':
      'Upload a picture for ' + field.label });
    file.addEventListener('change', async () => {
      const picked = file.files && file.files[0];
      if (!picked) return;
      showError(field.key, '');
      say('Uploading ' + picked.name + '…');
      try {
        const response = await fetch('/api/images', { method: 'POST', headers: {
          'X-WidgetWeaver-Token': token, 'Content-Type': picked.type ||
            'application/octet-stream' }, body: picked });
        const answer = await response.json();
        if (!response.ok) throw new Error(answer.error || ('HTTP ' + response.status));
        name.value = answer.fileName;
        say(answer.scaledFrom ? 'Scaled ' + picked.name + ' from ' + answer.scaledFrom.width + '×' +
          answer.scaledFrom.height + ' to ' + answer.width + '×' + answer.height + ' pixels' : 'Uploaded ' +
            picked.name);
        await edit(name);
      } catch (e) {
        showError(field.key, e.message);
      } finally {
        file.value = '';
      }
    });
    const theme = el('div', { class: 'theme', hidden: true, 'aria-live': 'polite' });
    wrap.append(name, file, theme);
    return wrap;
  }

  // Smart Photo crops: per size, the photo with its crop rectangle, moved by dragging or with
  // the arrow keys (Shift+arrows resize), and the four numbers the rectangle is.
  function cropEditor(family, parts) {
    const box = el('fieldset', { class: 'crop-editor', dataset: { cropFamily: family } },
                   el('legend', { text: family[0].toUpperCase() + family.slice(1) + ' crop' }));
    const frame = el('div', { class: 'crop-frame' });
    const photo = el('img', { alt: 'The photo', draggable: 'false' });
    const rect = el('div', { class: 'crop-rect', tabindex: '0', role: 'group', dataset: { cropRect: family },
                             'aria-label': family +
                               ' crop: drag it, or arrow keys to move and Shift+arrow keys to resize' });
    rect.append(el('div', { class: 'crop-handle', dataset: { cropHandle: family }, 'aria-hidden': 'true' }));
    frame.append(photo, rect);
    box.append(frame);
    for (const f of parts) {
      const input = el('input', { type: 'number', id: slug(f.key), min: f.min, max: f.max, step: f.step,
        inputmode: 'decimal', dataset: { field: f.key } });
      box.append(fieldShell(f, input));
    }
    return box;
  }
  const cropNow = {};   // family → the rectangle shown, while it is dragged or moved by keys
  function cropOf(family) {
    if (cropNow[family]) return cropNow[family];
    const r = design.image && design.image.smartPhoto && design.image.smartPhoto[family] &&
      design.image.smartPhoto[family].cropRect;
    return r ? { x: r.x, y: r.y, width: r.width, height: r.height } : { x: 0, y: 0, width: 1, height: 1 };
  }
  function placeCrop(family, r) {
    const rect = form.querySelector('[data-crop-rect="' + family + '"]');
    if (!rect) return;
    Object.assign(rect.style, { left: r.x * 100 + '%', top: r.y * 100 + '%', width: r.width * 100 + '%', height:
      r.height * 100 + '%' });
  }
  function showCrops() {
    const image = design.image;
    const master = image ? (image.smartPhoto ? image.smartPhoto.masterFileName : image.fileName) : '';
    for (const box of form.querySelectorAll('.crop-editor')) {
      const family = box.dataset.cropFamily;
      const photo = box.querySelector('img');
      const src = master ? '/api/images/' + encodeURIComponent(master) : '';
      if (src && photo.getAttribute('src') !== src) photo.src = src;
      placeCrop(family, cropOf(family));
    }
  }
  const round4 = (v) => Math.round(v * 10000) / 10000;
  function sendCrop(family, r) {
    const edits = ['x', 'y', 'width', 'height'].map((p) => ({ field: 'image.crop.' + family + '.' + p, value:
      String(round4(r[p])) }));
    return submit('image.crop.' + family + '.x', { edits }).then(() => { delete cropNow[family];
      placeCrop(family, cropOf(family)); });
  }
  let dragging = null;
  form.addEventListener('pointerdown', (e) => {
    const rect = e.target.closest('[data-crop-rect]');
    if (!rect || e.button !== 0) return;
    e.preventDefault();
    const family = rect.dataset.cropRect;
    rect.focus();
    rect.setPointerCapture(e.pointerId);
    const frame = rect.parentElement;
    dragging = { family, rect, mode: e.target.closest('[data-crop-handle]') ? 'resize' : 'move', x: e.clientX,
      y: e.clientY,
                 w: frame.clientWidth, h: frame.clientHeight, r0: cropOf(family) };
  });
  form.addEventListener('pointermove', (e) => {
    if (!dragging) return;
    const r = movedCrop(dragging.r0, dragging.mode, (e.clientX - dragging.x) / dragging.w,
      (e.clientY - dragging.y) / dragging.h);
    cropNow[dragging.family] = r;
    placeCrop(dragging.family, r);
  });
  function endDrag() {
    if (!dragging) return;
    const { family } = dragging;
    dragging = null;
    if (cropNow[family]) sendCrop(family, cropNow[family]);
  }
  form.addEventListener('pointerup', endDrag);
  form.addEventListener('pointercancel', endDrag);
  const cropKeys = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  const cropTimers = {};
  form.addEventListener('keydown', (e) => {
    const rect = e.target.closest && e.target.closest('[data-crop-rect]');
    const step = cropKeys[e.key];
    if (!rect || !step) return;
    e.preventDefault();
    const family = rect.dataset.cropRect;
    const r = movedCrop(cropOf(family), e.shiftKey ? 'resize' : 'move', step[0] * 0.01, step[1] * 0.01);
    cropNow[family] = r;
    placeCrop(family, r);
    // Held keys make one edit once they stop.
    clearTimeout(cropTimers[family]);
    cropTimers[family] = setTimeout(() => sendCrop(family, cropNow[family] || r), 250);
  });

  // Theme from photo: the picture's colours, and the accent and background that suit it.
  let themeFor = '';
  async function showTheme() {
    const box = form.querySelector('.theme');
    const picture = design.image && design.image.fileName;
    if (!box) return;
    if (!picture) { box.hidden = true; themeFor = ''; return; }
    if (picture === themeFor) return;
    themeFor = picture;
    try {
      const theme = await call('GET', '/api/images/' + encodeURIComponent(picture) + '/theme');
      box.textContent = '';
      const chips = el('div', { class: 'palette', role: 'img', 'aria-label': 'Colours of the photo: ' +
        theme.palette.join(', ') });
      for (const c of theme.palette) { const chip = el('span', { class: 'chip' }); chip.style.background = c;
        chips.append(chip); }
      const use = el('button', { type: 'button', class: 'btn', dataset: {
        themeAccent: theme.accent, themeBackground: theme.background },
                                 text: 'Use accent ' + theme.accent + ' and background ' + theme.background });
      use.addEventListener('click', async () => {
        await submit('style.accent', { field: 'style.accent', value: theme.accent });
        await submit('style.background', { field: 'style.background', value: theme.background });
      });
      box.append(el('p', { class: 'theme-title', text: 'Theme from photo' }), chips, use);
      box.hidden = false;
    } catch (e) { box.hidden = true; themeFor = ''; }
  }

  // Which groups the design uses (the seed's context-aware editor): clock settings for a clock,
  // image tools when there is an image, buttons and matched sets with Pro, weather for weather.
  function groupShown(group, d) {
    const template = d.layout && d.layout.template;
    switch (group) {
      case 'Clock': return template === 'clockIcon' || !!d.clockConfig;
      case 'Weather': return template === 'weather' || template === 'forecast';
      // Shown without Pro too, with its Pro marker and the reason beside the controls (the
      // issue: a Pro-only field without Pro is said at once, next to the control); buttons a
      // design already has stay editable without Pro, so they can be removed.
      case 'Actions': return true;
      case 'Matched set': return pro || !!d.matchedSet;
      case 'Reminders': return template === 'reminders';
      default: return true;
    }
  }
  // Within a button slot, only what its kind uses; the second slot once the first is set.
  const slotParts = { incrementVariable: ['variableKey', 'incrementAmount'], setVariableToNow: ['variableKey',
    'nowFormat'],
                      resetVariable: ['variableKey', 'resetValue'], openURL: ['url'] };
  function fieldShown(field, d) {
    if (field.slot !== undefined) {
      const part = field.key.replace(/^actions\[\d\]\./, '');
      const kindNode = form.querySelector('[data-field="actions[' + field.slot + '].kind"]');
      const kind = kindNode ? kindNode.value : '';
      if (part === 'kind' || part === 'title') return true;
      return (slotParts[kind] || []).includes(part);
    }
    const variant = /^matchedSet\.(small|medium|large)\./.exec(field.key);
    if (variant) return !!(d.matchedSet && d.matchedSet[variant[1]]);
    if (field.group === 'Image' && field.key !== 'image' && field.key !== 'image.fileName') return !!d.image;
    if (field.group === 'Symbol' && field.type !== 'symbol') return !!d.symbol;
    return true;
  }

  const slotFields = new Map();   // `actions[N].part` → the field, for slot N
  const fieldFor = (key) => slotFields.get(key) || fields.find((f) => f.key === key);
  function build() {
    form.textContent = '';
    const groups = new Map();
    for (const f of fields.filter(editable)) {
      if (!groups.has(f.group)) groups.set(f.group, []);
      groups.get(f.group).push(f);
    }
    const names = [...groups.keys()].sort((a, b) => {
      const i = groupOrder.indexOf(a), j = groupOrder.indexOf(b);
      return (i < 0 ? 99 : i) - (j < 0 ? 99 : j);
    });
    for (const name of names) {
      const set = el('fieldset', { class: 'group', dataset: { group: name } }, el('legend', { text: name }));
      const list = groups.get(name);
      if (list.some((f) => f.key.startsWith('actions[]'))) {
        for (const slot of [0, 1]) {
          const box = el('fieldset', { class: 'action-slot', dataset: { slot: String(slot) } }, el('legend', {
            text: 'Button ' + (slot + 1) }));
          for (const f of list.filter((f) => f.key.startsWith('actions[]'))) {
            const one = Object.assign({}, f, { key: f.key.replace('[]', '[' + slot + ']'), aliases: [], slot });
            slotFields.set(one.key, one);
            box.append(fieldShell(one, control(one)));
          }
          set.append(box);
        }
        for (const f of list.filter((f) => !f.key.startsWith('actions[]'))) set.append(fieldShell(f,
          control(f)));
      } else if (name === 'Image') {
        for (const f of list.filter((f) => !f.key.startsWith('image.crop.'))) set.append(fieldShell(f,
          control(f)));
        for (const family of ['small', 'medium', 'large']) {
          const parts = list.filter((f) => f.key.startsWith('image.crop.' + family + '.'));
          if (parts.length) set.append(cropEditor(family, parts));
        }
      } else {
        for (const f of list) set.append(fieldShell(f, control(f)));
      }
      if (list.some((f) => f.pro)) {
        const why = name === 'Actions' ? 'Buttons need Pro: without it the widgets do not draw them.'
          : 'Matched sets need Pro: without it every size draws the design itself.';
        // The unlock itself, in the page (as the seed app offers it): what `weaver pro unlock` does.
        const reason = el('div', { class: 'pro-reason', dataset: { proReason: name }, hidden: true },
                          el('p', { text: why }),
                          el('p', { class: 'pro-what', text: 'Pro adds unlimited saved designs, matched sets ' +
                            '(own small, medium and large designs), up to two buttons on a widget and stored ' +
                            'variables. It is kept in this store, as "weaver pro unlock" keeps it.' }),
                          el('button', { type: 'button', class: 'btn primary', dataset: { unlockPro: '' },
                            text: 'Unlock Pro' }));
        set.querySelector('legend').append(el('span', { class: 'pill pro', text: 'Pro', title: 'Needs Pro' }));
        set.querySelector('legend').after(reason);
      }
      form.append(set);
    }
  }

  // MARK: Showing the draft in the controls.
  function visibility() {
    for (const set of form.querySelectorAll('fieldset.group')) set.hidden = !groupShown(set.dataset.group,
      design);
    for (const row of form.querySelectorAll('[data-field-row]')) {
      const field = fieldFor(row.dataset.fieldRow);
      if (field) row.hidden = !fieldShown(field, design);
    }
    for (const c of form.querySelectorAll('.crop-editor')) c.hidden = !design.image;
    // Without Pro: the reason beside the controls; a design without buttons cannot get one.
    for (const reason of form.querySelectorAll('[data-pro-reason]')) {
      reason.hidden = pro;
      const locked = !pro && !(reason.dataset.proReason === 'Actions' ? design.actionBar : design.matchedSet);
      for (const c of reason.closest('fieldset.group').querySelectorAll('input, select, textarea, button'))
        if (!c.hasAttribute('data-unlock-pro')) c.disabled = locked;
    }
    const second = form.querySelector('.action-slot[data-slot="1"]');
    if (second) second.hidden = !(design.actionBar && design.actionBar.actions &&
      design.actionBar.actions.length);
  }
  function fill() {
    for (const node of form.querySelectorAll('[data-field]')) {
      if (node === document.activeElement && node.type !== 'checkbox') continue;
      const key = node.dataset.field;
      const field = fieldFor(key);
      if (!field) continue;
      const value = valueAt(design, field);
      if (node.dataset.kind === 'swatches') {
        for (const r of node.querySelectorAll('input')) r.checked = r.value === stringOf(value);
      } else if (node.type === 'checkbox') {
        node.checked = value === true;
      } else {
        node.value = stringOf(value);
      }
      const range = form.querySelector('[data-range-for="' + CSS.escape(key) + '"]');
      if (range) range.value = stringOf(value);
      if (node.closest('.symbol-picker')) {
        for (const b of node.closest('.symbol-picker').querySelectorAll('[data-symbol]'))
          b.setAttribute('aria-pressed', String(b.dataset.symbol === stringOf(value)));
      }
    }
    visibility();
    showCrops();
    showTheme();
    document.getElementById('design-title').textContent = design.name;
    const unsaved = JSON.stringify(design) !== savedText;
    document.getElementById('unsaved').hidden = !unsaved;
    if (unsaved) saveState('', false);
    document.getElementById('revert').disabled = !unsaved;
    document.getElementById('undo').disabled = undoStack.length === 0;
    document.getElementById('redo').disabled = redoStack.length === 0;
    root.dataset.unsaved = String(unsaved);
    document.getElementById('inspector-json').textContent = JSON.stringify(saved, null, 2);
  }

  function showError(key, message) {
    const node = form.querySelector('[data-error-for="' + CSS.escape(key) + '"]');
    const control = form.querySelector('[data-field="' + CSS.escape(key) + '"]');
    if (control) control.setAttribute('aria-invalid', message ? 'true' : 'false');
    if (node) { node.textContent = message || ''; return true; }
    return false;
  }
  function clearErrors() {
    for (const n of form.querySelectorAll('[data-error-for]')) n.textContent = '';
    for (const n of form.querySelectorAll('[aria-invalid="true"]')) n.setAttribute('aria-invalid', 'false');
  }
  // What the texts show now, and the template's problems named beside it: an unclosed {{, or
  // a key no built-in or stored variable has and no |fallback covers.
  function showResolved(resolved) {
    for (const p of form.querySelectorAll('[data-resolved-for]')) {
      const key = p.dataset.resolvedFor;
      p.textContent = resolved && resolved[key] !== undefined && valueAt(design, fieldFor(key)) ?
        resolved[key] : '';
      const source = stringOf(valueAt(design, fieldFor(key)));
      const problems = [];
      if ((source.match(/\{\{/g) || []).length > (source.match(/\}\}/g) ||
        []).length) problems.push('a {{ is not closed with }}');
      for (const m of source.matchAll(/\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*(\|[^}]*)?\}\}/g)) {
        const name = m[1].toLowerCase();
        const known = variables.find((v) => v.key.toLowerCase() === name);
        if (m[2]) continue;
        // A built-in key whose data is not set up yet says so (the widget shows it once it is).
        if (known && known.notSetUp) problems.push('{{' + m[1] + '}} has no value yet: ' + known.notSetUp);
        else if (!known) problems.push('{{' + m[1] +
          '}} has no value: no built-in or stored variable of that name (add |fallback)');
      }
      const notice = form.querySelector('[data-notice-for="' + CSS.escape(key) + '"]');
      if (notice && !notice.dataset.server) notice.textContent = problems.join('; ');
    }
  }
  function showNotices(key, notices) {
    for (const n of form.querySelectorAll('[data-notice-for]')) delete n.dataset.server;
    for (const n of form.querySelectorAll('[data-notice-for="' + CSS.escape(key) + '"]')) n.textContent = '';
    for (const n of notices || []) {
      const node = form.querySelector('[data-notice-for="' + CSS.escape(n.field) + '"]');
      if (node) { node.textContent = n.message; node.dataset.server = 'true'; }
    }
  }

  // MARK: Edits. Each goes to the server's draft; the answer is the new draft.
  function editValue(node) {
    if (node.dataset.kind === 'swatches') { const c = node.querySelector('input:checked');
      return c ? c.value : ''; }
    if (node.type === 'checkbox') return node.checked ? 'true' : 'false';
    return node.value;
  }
  function actionAssignment(key) {
    // `actions[N].part`: the slot's controls together make one `action.N` assignment, in the
    // syntax `weaver designs set` takes (increment:KEY:AMOUNT:TITLE, now:KEY:FORMAT:TITLE, …).
    const m = /^actions\[(\d)\]\./.exec(key);
    if (!m) return null;
    const slot = Number(m[1]);
    const get = (part) => {
      const node = form.querySelector('[data-field="actions[' + slot + '].' + part + '"]');
      return node ? editValue(node).trim() : '';
    };
    const kind = get('kind');
    const title = get('title');
    let value;
    switch (kind) {
      case '': value = ''; break;
      case 'incrementVariable': value = 'increment:' + get('variableKey') + ':' + (get('incrementAmount') ||
        '1') + (title ? ':' + title : ''); break;
      case 'setVariableToNow': value = 'now:' + get('variableKey') + ':' + (get('nowFormat') ||
        'iso8601') + (title ? ':' + title : ''); break;
      case 'resetVariable': value = 'reset:' + get('variableKey') + ':' + (get('resetValue') ||
        '0') + (title ? ':' + title : ''); break;
      case 'openURL': value = 'open:' + (title ? title + ':' : '') + get('url'); break;
      default: value = kind;
    }
    return { field: 'action.' + (slot + 1), value };
  }
  let editStarted = 0;
  // `since`: when the user acted (a keystroke's time for typed text), so 'edit-to-preview' measures
  // what the user waits for, not just the request.
  function edit(node, since) {
    const key = node.dataset.field;
    const assignment = actionAssignment(key) || { field: key, value: editValue(node) };
    // Typed text already sent while typing: its change event has nothing new.
    if (node.dataset.live === 'true' && !assignment.field.startsWith('action.')) {
      busy = busy.then(() => {
        if (stringOf(valueAt(design, fieldFor(key))) === assignment.value &&
          node.getAttribute('aria-invalid') !== 'true') return;
        return send(key, assignment, since);
      });
      return busy;
    }
    return submit(key, assignment);
  }
  function submit(key, assignment) {
    busy = busy.then(() => send(key, assignment));
    return busy;
  }
  // One edit, in the chain: the draft changes in the order edits were made. The pictures are
  // not waited for: the next edit's redraw supersedes this one's if it is still drawing.
  async function send(key, assignment, since) {
    const before = design;
    const started = since || performance.now();
    try {
      const answer = await call('POST', '/api/drafts/' + id + '/edit', assignment);
      clearErrors();
      keepForUndo(before);
      design = answer.design;
      showNotices(key, answer.notices);
      fill();
      showResolved(answer.resolved);
      if (key === 'style.accent') await loadSwatches();
      editStarted = started;
      redraw();
    } catch (e) {
      showError(key, e.message);
      say('Not changed: ' + e.message);
    }
  }
  form.addEventListener('submit', (e) => e.preventDefault());
  form.addEventListener('change', (e) => {
    const node = e.target.closest('[data-field]');
    if (!node) return;
    if (typingTimers.has(node)) { clearTimeout(typingTimers.get(node)); typingTimers.delete(node); }
    // A button's kind shows the parts it needs; it is sent once they are filled in.
    const slot = /^actions\[(\d)\]\.kind$/.exec(node.dataset.field);
    if (slot && node.value) {
      visibility();
      const needs = (slotParts[node.value] || [])[0];
      const part = needs && form.querySelector('[data-field="actions[' + slot[1] + '].' + needs + '"]');
      if (part && !part.value.trim()) { part.focus(); return; }
    }
    edit(node);
  });
  form.addEventListener('input', (e) => {
    const range = e.target.dataset && e.target.dataset.rangeFor;
    if (range) {
      const box = form.querySelector('[data-field="' + CSS.escape(range) + '"]');
      box.value = e.target.value;
      edit(box);
    }
  });
  // Texts redraw the dock while they are typed. The first keystroke after a quiet spell is sent at
  // once (a single key waits for nothing); keys that follow within `typingDelayMs` of each other are
  // sent together once typing pauses (the edits go to the server in order; a newer picture
  // supersedes one still being drawn).
  const typingDelayMs = 120;
  const typingTimers = new Map();
  const lastKeyAt = new Map();
  form.addEventListener('input', (e) => {
    const node = e.target;
    if (!node.dataset || node.dataset.live !== 'true') return;
    const typedAt = performance.now();
    const quiet = typedAt - (lastKeyAt.get(node) ?? -Infinity) > typingDelayMs;
    lastKeyAt.set(node, typedAt);
    clearTimeout(typingTimers.get(node));
    typingTimers.delete(node);
    if (quiet) { edit(node, typedAt); return; }
    typingTimers.set(node, setTimeout(() => { typingTimers.delete(node); edit(node, typedAt); }, typingDelayMs));
  });
  form.addEventListener('click', async (e) => {
    const unlock = e.target.closest('[data-unlock-pro]');
    if (unlock) {
      unlock.disabled = true;
      try {
        pro = !!(await call('POST', '/api/pro/unlock')).pro;
        const vars = await call('GET', '/api/variables');   // stored variables are Pro's
        variables = vars.variables || [];
        visibility();
        redraw();
        say(pro ? 'Pro unlocked: matched sets and buttons are yours to use.' : 'Pro is still locked.');
      } catch (error) {
        say('Could not unlock Pro: ' + error.message);
      } finally { unlock.disabled = false; }
      return;
    }
    const b = e.target.closest('[data-symbol]');
    if (!b) return;
    const input = b.closest('.symbol-picker').querySelector('[data-field]');
    input.value = b.dataset.symbol;
    edit(input);
  });

  // `{{` completion: every built-in and stored key with its current value.
  let completion = null;
  function closeCompletion() { if (completion) { completion.list.hidden = true;
    completion.input.removeAttribute('aria-activedescendant'); completion = null; } }
  form.addEventListener('input', (e) => {
    const input = e.target;
    const list = input.parentElement && input.parentElement.querySelector('.completions');
    if (!list) return;
    const before = input.value.slice(0, input.selectionStart);
    const m = /\{\{\s*([A-Za-z0-9_.]*)$/.exec(before);
    if (!m) { closeCompletion(); return; }
    const q = m[1].toLowerCase();
    const matches = variables.filter((v) => v.key.toLowerCase().includes(q)).slice(0, 40);
    list.textContent = '';
    matches.forEach((v, i) => {
      const item = el('li', { role: 'option', id: list.id + '-' + i, 'aria-selected': i === 0 ? 'true' :
        'false', dataset: { key: v.key } },
                      el('span', { text: v.key }), el('span', { class: 'value', text: v.notSetUp ?
                        v.notSetUp : v.value }));
      list.append(item);
    });
    list.hidden = matches.length === 0;
    completion = matches.length ? { input, list, start: before.length - m[1].length, index: 0 } : null;
    if (completion) input.setAttribute('aria-activedescendant', list.id + '-0');
  });
  function accept(key) {
    const { input, start } = completion;
    const after = input.value.slice(input.selectionStart).replace(/^[A-Za-z0-9_.]*\s*(\}\})?/, '');
    input.value = input.value.slice(0, start) + key + '}}' + after;
    const caret = start + key.length + 2;
    input.setSelectionRange(caret, caret);
    closeCompletion();
  }
  form.addEventListener('keydown', (e) => {
    if (!completion || e.target !== completion.input) return;
    const items = [...completion.list.children];
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      completion.index = (completion.index + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length;
      items.forEach((li, i) => li.setAttribute('aria-selected', String(i === completion.index)));
      completion.input.setAttribute('aria-activedescendant', items[completion.index].id);
    } else if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      accept(items[completion.index].dataset.key);
    } else if (e.key === 'Escape') {
      closeCompletion();
    }
  });
  form.addEventListener('mousedown', (e) => {
    const li = e.target.closest('.completions li');
    if (li && completion) { e.preventDefault(); accept(li.dataset.key); }
  });
  form.addEventListener('focusout', (e) => {
    if (completion && e.target === completion.input) setTimeout(closeCompletion, 0); });

  // MARK: The preview dock, drawn from the server's draft.
  // Values the tried buttons wrote: drawn instead of the store's, never saved.
  const trial = {};
  root.addEventListener('click', async (e) => {
    const hit = e.target.closest('button.try');
    if (!hit) return;
    try {
      const answer = await call('POST', '/api/drafts/' + id + '/try', {
        family: hit.dataset.family, x: Number(hit.dataset.x), y: Number(hit.dataset.y), trial });
      say(answer.message);
      document.getElementById('dock-state').textContent = answer.message;
      if (answer.key) { trial[answer.key] = answer.value; await redraw(); }
    } catch (err) { say('Could not try it: ' + err.message); }
  });

  // Live data or the fixed sample (a weather design can be designed before set-up).
  document.getElementById('sample-data').addEventListener('change', () => { redraw(); });
  // Light or dark widgets: the dock and the swatches in that palette.
  document.getElementById('light-widgets').addEventListener('change', async () => { await loadSwatches();
    redraw(); });
  async function loadSwatches() {
    const accent = design && design.style && design.style.accent ? design.style.accent : 'blue';
    swatches = await call('GET', '/api/swatches?appearance=' + widgetAppearance() + '&accent=' +
      encodeURIComponent(accent));
    for (const face of form.querySelectorAll('[data-swatch-for]')) {
      const colour = (swatches[face.dataset.swatchFor] || {})[face.dataset.swatch];
      if (colour) face.style.background = colour;
    }
    form.dataset.swatchAppearance = widgetAppearance();
  }

  let generation = 0;
  let drawnWith = null;      // how the dock's pictures were last drawn (sample data, light, tried values)
  const objectURLs = {};
  // Pictures at the screen's density: a 1× screen gets 1 pixel per point, a 2× screen 2.
  const pixelScale = () => Math.min(3, Math.max(1, Math.round(window.devicePixelRatio || 1)));
  let drawing = null;   // the AbortController of the pictures being fetched
  const widgetAppearance = () => document.getElementById('light-widgets').checked ? 'light' : 'dark';
  // Names one redraw for the server, which reads the store once for its six pictures: unique to
  // this page (a second tab's redraw 1 is another redraw).
  const pageToken = String(Math.floor(Math.random() * 1e9));
  const drawToken = (n) => pageToken + String(n).padStart(9, '0');
  async function redraw() {
    const mine = ++generation;
    const started = editStarted || performance.now();
    editStarted = 0;
    if (drawing) drawing.abort();
    const controller = new AbortController();
    drawing = controller;
    const drawn = await Promise.all(families.map(async (family) => {
      const headers = { 'X-WidgetWeaver-Token': token };
      if (Object.keys(trial).length) headers['X-WidgetWeaver-Try'] = encodeURIComponent(JSON.stringify(trial));
      const data = document.getElementById('sample-data').checked ? 'sample' : 'live';
      const response = await fetch('/api/drafts/' + id + '/render?family=' + family + '&format=png&scale=' +
        pixelScale() + '&data=' + data + '&appearance=' + widgetAppearance() + '&draw=' + drawToken(mine),
                                   { method: 'POST', headers, signal: controller.signal });
      if (!response.ok) throw new Error((await response.json()).error || ('HTTP ' + response.status));
      let warnings = [], buttons = [];
      try { warnings = JSON.parse(decodeURIComponent(response.headers.get('X-WidgetWeaver-Warnings') ||
        '%5B%5D')); } catch (e) { warnings = []; }
      try { buttons = JSON.parse(decodeURIComponent(response.headers.get('X-WidgetWeaver-Buttons') ||
        '%5B%5D')); } catch (e) { buttons = []; }
      return { family, blob: await response.blob(), warnings, buttons };
    })).catch((e) => { if (e.name !== 'AbortError') say('The preview could not be drawn: ' + e.message);
      return null; });
    if (!drawn || mine !== generation) return;
    await Promise.all(drawn.map(async ({ family, blob, warnings, buttons }) => {
      const img = root.querySelector('img[data-preview-family="' + family + '"]');
      // A real button over each of the draft's buttons: pressing one tries it (nothing saved).
      const surface = img.parentElement;
      for (const old of surface.querySelectorAll('button.try')) old.remove();
      for (const b of buttons) {
        const hit = el('button', { type: 'button', class: 'hit try',
                                   'aria-label': 'Try ' + b.label + ' (' + family + ')',
                                   title: 'Try ' + b.label,
                                   dataset: { family, x: String(b.x + b.width / 2),
                                              y: String(b.y + b.height / 2) } });
        Object.assign(hit.style, { left: b.x + 'px', top: b.y + 'px', width: b.width + 'px', height: b.height +
          'px' });
        surface.append(hit);
      }
      const url = URL.createObjectURL(blob);
      const old = objectURLs[family];
      img.src = url;
      objectURLs[family] = url;
      try { await img.decode(); } catch (e) { /* a broken picture still replaces the old one */ }
      if (old) URL.revokeObjectURL(old);
      const list = root.querySelector('[data-warnings-for="' + family + '"]');
      list.textContent = '';
      for (const w of warnings) list.append(el('li', { text: w }));
    }));
    if (mine !== generation) return;
    performance.measure('edit-to-preview', { start: started, end: performance.now() });
    const dock = root.querySelector('.dock');
    dock.dataset.generation = String(mine);
    dock.dataset.appearance = widgetAppearance();
    drawnWith = { sample: document.getElementById('sample-data').checked, light: widgetAppearance() === 'light',
      tried: Object.keys(trial).length > 0 };
    document.getElementById('dock-state').textContent =
      dockState(Object.assign({ unsaved: root.dataset.unsaved === 'true' }, drawnWith));
    checks(drawn);
    if (document.getElementById('inspector').open) tree();
  }
  function checks(drawn) {
    const list = document.getElementById('inspector-checks');
    list.textContent = '';
    let any = false;
    for (const { family, warnings } of drawn) for (const w of warnings) { any = true; list.append(el('li', {
      class: 'check-warn', text: family + ': ' + w })); }
    for (const n of form.querySelectorAll('.notice')) if (n.textContent) { any = true; list.append(el('li', {
      class: 'check-warn', text: n.textContent })); }
    if (!any) list.append(el('li', { class: 'check-ok', text: 'Every size draws without warnings.' }));
  }
  async function tree() {
    const response = await fetch('/api/drafts/' + id + '/render?family=medium&format=json', {
      method: 'POST', headers: { 'X-WidgetWeaver-Token': token } });
    document.getElementById('inspector-tree').textContent = await response.text();
  }
  document.getElementById('inspector').addEventListener('toggle', (e) => { if (e.target.open) tree(); });

  // MARK: Undo, redo, revert, save.
  // A change Undo takes back: the design before it is kept, and Redo's stack goes.
  function keepForUndo(before) {
    undoStack.push(before);
    redoStack.length = 0;
  }
  // The draft as the server answers it after a change (undo, redo, revert, the assistant), shown.
  function showDraft(answer) {
    design = answer.design;
    clearErrors();
    fill();
    showResolved(answer.resolved);
  }
  async function replaceDraft(next) {
    showDraft(await call('PUT', '/api/drafts/' + id, next));
    await redraw();
  }
  // Undo and redo are one move between the two stacks: the design taken from one, the current
  // one kept on the other.
  function step(from, to, done, verb) {
    busy = busy.then(async () => {
      if (!from.length) return;
      const target = from.pop();
      to.push(design);
      try { await replaceDraft(target); say(done); } catch (e) { say('Could not ' + verb + ': ' + e.message); }
    });
    return busy;
  }
  function undo() { return step(undoStack, redoStack, 'Undone', 'undo'); }
  function redo() { return step(redoStack, undoStack, 'Redone', 'redo'); }
  function revert() {
    busy = busy.then(async () => {
      try {
        const answer = await call('DELETE', '/api/drafts/' + id);
        keepForUndo(design);
        showDraft(answer);
        await redraw();
        say('Reverted to the saved design');
      } catch (e) { say('Could not revert: ' + e.message); }
    });
    return busy;
  }
  function saveState(text, isError) {
    const state = document.getElementById('save-state');
    state.textContent = text;
    state.classList.toggle('error', isError);
  }
  function save() {
    busy = busy.then(async () => {
      try {
        const answer = await call('PUT', '/api/designs/' + id, design);
        design = answer.design;
        saved = answer.design;
        savedText = JSON.stringify(saved);
        clearErrors();
        fill();
        root.dataset.savedAt = design.updatedAt;
        // The dock's pictures are now the saved design's (issue 41.18: it still said "unsaved draft").
        if (drawnWith) {
          document.getElementById('dock-state').textContent = dockState(Object.assign({ unsaved: false }, drawnWith));
        }
        say('Saved: every widget shows it now');
        // Said beside the Save button too, where the eyes are (the bar's line is across the window).
        saveState('Saved', false);
      } catch (e) {
        for (const err of e.errors || (e.field ? [{ field: e.field, message: e.message }] :
          [])) showError(err.field, err.message);
        say('Not saved: ' + e.message);
        saveState('Not saved', true);
      }
    });
    return busy;
  }
  document.getElementById('undo').addEventListener('click', undo);
  document.getElementById('redo').addEventListener('click', redo);
  document.getElementById('revert').addEventListener('click', revert);
  document.getElementById('save').addEventListener('click', save);
  document.addEventListener('keydown', (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
    const k = e.key.toLowerCase();
    if (k === 's') { e.preventDefault(); save(); return; }
    // Inside a text box Ctrl+Z is the box's own undo.
    const typing = e.target.matches && e.target.matches('input[type=text], input[type=search], textarea');
    if (typing) return;
    if (k === 'z' && !e.shiftKey) { e.preventDefault(); undo(); }
    else if ((k === 'z' && e.shiftKey) || k === 'y') { e.preventDefault(); redo(); }
  });
  window.addEventListener('beforeunload', (e) => {
    if (root.dataset.unsaved === 'true') { e.preventDefault(); e.returnValue = ''; }
  });

  // MARK: Designing in words: Describe and Ask go to the same assistant as `weaver ai describe` and
  // `weaver ai edit`; the answer becomes the draft as one undoable step, and nothing is saved until Save.
  const assistant = document.getElementById('assistant');
  const describeForm = document.getElementById('describe');
  const askForm = document.getElementById('ask');
  let assistantInfo = null;
  function assistantEnabled(on) {
    for (const c of assistant.querySelectorAll('textarea, select, button')) c.disabled = !on;
  }
  function showAssistant(report, outcome) {
    const box = document.getElementById('assistant-result');
    box.hidden = false;
    box.dataset.outcome = outcome;
    document.getElementById('assistant-headline').textContent = report.headline;
    const list = (node, lines) => { node.textContent = ''; for (const l of lines) node.append(el('li', { text: l })); };
    list(document.getElementById('assistant-changes'), report.changes || []);
    const refused = report.refused || [];
    list(document.getElementById('assistant-refused'), refused.map((r) => r.text));
    document.getElementById('assistant-refused-title').hidden = refused.length === 0;
    list(document.getElementById('assistant-notes'), report.notes || []);
  }
  async function startAssistant() {
    try { assistantInfo = await call('GET', '/api/assistant'); } catch (e) {
      assistantInfo = { configured: false, setup: 'The Describe and Ask boxes are off: ' + e.message };
    }
    const about = assistantAbout(assistantInfo);
    assistant.dataset.state = about.enabled ? 'on' : 'off';
    document.getElementById('assistant-about').textContent = about.text;
    assistantEnabled(about.enabled);
  }
  function askModel(kind, body) {
    busy = busy.then(async () => {
      const before = design;
      assistantEnabled(false);
      assistant.dataset.state = 'asking';
      const wait = assistantInfo && assistantInfo.timeoutSeconds ? ' (it may take up to ' +
        assistantInfo.timeoutSeconds + ' s)' : '';
      showAssistant({ headline: 'Asking ' + ((assistantInfo && assistantInfo.model) || 'the model') + '…' + wait },
        'asking');
      say('Asking the local model…');
      try {
        const answer = await call('POST', '/api/drafts/' + id + '/' + kind, body);
        if (answer.changed) {
          keepForUndo(before);
          showDraft(answer);
          // The draft has changed whatever happens to the swatches' repaint.
          await loadSwatches().catch(() => {});
          redraw();
        }
        const report = assistantReport(kind, answer, (key) => (fieldFor(key) || {}).label);
        showAssistant(report, 'done');
        say(report.headline);
      } catch (e) {
        showAssistant({ headline: 'Not changed: ' + e.message }, 'error');
        say('Not changed: ' + e.message);
      } finally {
        assistantEnabled(true);
        assistant.dataset.state = 'on';
      }
    });
    return busy;
  }
  describeForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = describeForm.elements.text.value.trim();
    if (text) askModel('describe', { text, family: describeForm.elements.family.value });
  });
  askForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = askForm.elements.text.value.trim();
    if (text) askModel('ask', { text });
  });
  // Ctrl+Enter in a box sends it (Enter alone is a new line).
  for (const f of [describeForm, askForm]) {
    f.elements.text.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); f.requestSubmit(); }
    });
  }
  startAssistant();

  // MARK: Start.
  (async () => {
    try {
      const [table, draft, savedDesign, vars, syms, colours] = await Promise.all([
        call('GET', '/api/fields'), call('GET', '/api/drafts/' + id), call('GET', '/api/designs/' + id),
        call('GET', '/api/variables'), call('GET', '/api/symbols'), call('GET', '/api/swatches?appearance=' +
          widgetAppearance()),
      ]);
      fields = table.design || [];
      variables = vars.variables || [];
      pro = !!vars.pro;
      symbols = syms;
      swatches = colours;
      saved = savedDesign;
      savedText = JSON.stringify(saved);
      design = draft.design;
      build();
      fill();
      showResolved(draft.resolved);
      root.dataset.ready = 'true';
      await redraw();
    } catch (e) {
      form.textContent = 'The editor could not start: ' + e.message;
    }
  })();
})();