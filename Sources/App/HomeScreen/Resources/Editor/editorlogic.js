  // MARK: Values by key path. A key (or one of its aliases) is a JSON path into the design
  // (`style.padding`, `clockConfig.theme`); `actions[N]` lives under `actionBar.actions`. A
  // key naming an object reads its name (`symbol` → its name, `image` → its file name).
  function at(object, path) {
    let v = object;
    for (const part of path.replace(/^actions\[(\d)\]/, 'actionBar.actions.$1').split('.')) {
      if (v == null) return undefined;
      v = v[part];
    }
    return v;
  }
  function valueAt(object, field) {
    for (const path of [field.key].concat(field.aliases || [])) {
      let v = at(object, path);
      if (field.type === 'flag' && v && typeof v === 'object') return true;
      if (v && typeof v === 'object') v = v.name !== undefined ? v.name : (v.fileName !== undefined ?
        v.fileName : v.token);
      if (v !== undefined && v !== null && typeof v !== 'object') return v;
    }
    return undefined;
  }
  const stringOf = (v) => v == null ? '' : (typeof v === 'object' ? '' : String(v));
  // Fields the page edits through others: `action.N` is what the `actions[]` controls of slot
  // N compose; Smart Photo renders are read from files (the app prepares them).
  const editable = (f) => !(/^action\.\d$/.test(f.key)) && (!f.key.includes('[]') ||
    f.key.startsWith('actions[]'));
  const slug = (key) => 'f-' + key.replace(/[^A-Za-z0-9]+/g, '-');
  // Moving or resizing a crop rectangle (fractions of the picture) keeps it inside the picture and
  // at least `minimumCrop` wide and high.
  const clamp = (v, lo, hi) => Math.min(Math.max(v, lo), hi);
  const minimumCrop = 0.02;
  function movedCrop(r0, mode, dx, dy) {
    if (mode === 'resize') {
      return { x: r0.x, y: r0.y, width: clamp(r0.width + dx, minimumCrop, 1 - r0.x), height: clamp(r0.height +
        dy, minimumCrop, 1 - r0.y) };
    }
    return { x: clamp(r0.x + dx, 0, 1 - r0.width), y: clamp(r0.y + dy, 0, 1 - r0.height), width: r0.width,
      height: r0.height };
  }
  // A choice as a person reads it: a button's kind in words (the value sent stays the field table's).
  const buttonKinds = { incrementVariable: 'Add to a variable', setVariableToNow: 'Set a variable to now',
    resetVariable: 'Reset a variable', openURL: 'Open a link' };
  const choiceText = (key, value) =>
    (/^actions\[\d?\]\.kind$/.test(key) && buttonKinds[value]) || value;
  // The line under "Preview": what the dock's pictures were drawn from.
  function dockState(s) {
    return 'Drawn from the ' + (s.unsaved ? 'unsaved draft' : 'saved design')
      + (s.sample ? ', with sample data' : '') + (s.light ? ', light' : '') + (s.tried ? ', with tried values' : '');
  }
  // MARK: Designing in words. What the Describe and Ask boxes say about the local model (from
  // `GET /api/assistant`, which contacts nothing), and an answer as the page lists it: a headline, the
  // changes, each refused edit by its field's label, and the model's notes.
  function assistantAbout(info) {
    if (!info || !info.configured) {
      return { enabled: false, text: (info && info.setup) || 'No local model is set up, so nothing is contacted. '
        + "Run 'weaver ai setup', then reload this page." };
    }
    const where = info.loopback ? info.url : info.url + ' (not this machine: your words and this design go there)';
    return { enabled: true, text: 'Asks ' + info.model + ' at ' + where + ". It sees your words and this design's "
      + 'fields, never your files. Nothing is saved until Save.' };
  }
  const quoted = (v) => "'" + (String(v).length > 60 ? String(v).slice(0, 57) + '…' : String(v)) + "'";
  function assistantReport(kind, answer, labelOf) {
    const changes = answer.changes || [];
    const refused = (answer.refused || []).map((r) => {
      const label = labelOf ? labelOf(r.field) : undefined;
      return { field: r.field, text: (label ? label + ' (' + r.field + ')' : r.field) + ' = ' + quoted(r.value) +
        ': ' + r.message };
    });
    let headline;
    if (!answer.changed) {
      headline = 'Nothing changed: ' + (refused.length ? 'every edit the model proposed was refused'
        : 'the model proposed no edit');
    } else {
      const n = changes.length + ' change' + (changes.length === 1 ? '' : 's');
      headline = (kind === 'describe' ? 'A new design from your words (' + n + ' from the Classic start)'
        : 'Your edit: ' + n) + ', in the draft; nothing is saved until Save';
    }
    return { headline, changes, refused, notes: answer.notes || [] };
  }
  if (typeof module === 'object') {
    module.exports = { at, valueAt, stringOf, editable, slug, clamp, minimumCrop, movedCrop, dockState,
      choiceText, assistantAbout, assistantReport };
  }
