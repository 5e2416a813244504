// The Editor's pure logic (Sources/App/HomeScreen/Resources/Editor/editorlogic.js): values by key path, which
// fields the page edits, control ids, and the crop rectangle's moves.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const logic = require('../../../Sources/App/HomeScreen/Resources/Editor/editorlogic.js');

const design = {
  name: 'Classic',
  style: { padding: 12, accent: { token: 'blue' } },
  symbol: { name: 'sparkles' },
  image: { fileName: 'photo.jpg' },
  clockConfig: { theme: 'ocean' },
  actionBar: { actions: [{ kind: 'openURL', title: 'Go' }, { kind: 'resetVariable', title: 'Reset' }] },
  matchedSet: { small: {} },
};

test('at reads a JSON path, with actions[N] under actionBar.actions', () => {
  assert.equal(logic.at(design, 'style.padding'), 12);
  assert.equal(logic.at(design, 'actions[1].kind'), 'resetVariable');
  assert.equal(logic.at(design, 'actions[0]').title, 'Go');
  assert.equal(logic.at(design, 'missing.deeper.still'), undefined);
});

test('valueAt reads an object by its name, file name or token, and tries the aliases in order', () => {
  assert.equal(logic.valueAt(design, { key: 'symbol' }), 'sparkles');
  assert.equal(logic.valueAt(design, { key: 'image' }), 'photo.jpg');
  assert.equal(logic.valueAt(design, { key: 'style.accent' }), 'blue');
  assert.equal(logic.valueAt(design, { key: 'theme', aliases: ['clockConfig.theme'] }), 'ocean');
  assert.equal(logic.valueAt(design, { key: 'matchedSet', type: 'flag' }), true);
  assert.equal(logic.valueAt(design, { key: 'nothing', aliases: ['neither'] }), undefined);
});

test('stringOf shows scalars and nothing for objects or null', () => {
  assert.equal(logic.stringOf(3), '3');
  assert.equal(logic.stringOf(null), '');
  assert.equal(logic.stringOf(undefined), '');
  assert.equal(logic.stringOf({ a: 1 }), '');
});

test('the page edits action.N through the slot controls and no other [] field but actions[]', () => {
  assert.equal(logic.editable({ key: 'action.0' }), false);
  assert.equal(logic.editable({ key: 'smartPhoto.renders[]' }), false);
  assert.equal(logic.editable({ key: 'actions[].kind' }), true);
  assert.equal(logic.editable({ key: 'style.padding' }), true);
});

test('slug makes one id-safe name per key', () => {
  assert.equal(logic.slug('actions[0].kind'), 'f-actions-0-kind');
  assert.equal(logic.slug('style.padding'), 'f-style-padding');
});

test('a moved crop stays inside the picture; a resized one keeps the minimum size', () => {
  const r0 = { x: 0.5, y: 0.5, width: 0.4, height: 0.4 };
  assert.deepEqual(logic.movedCrop(r0, 'move', 0.5, -0.9), { x: 0.6, y: 0, width: 0.4, height: 0.4 });
  const shrunk = logic.movedCrop(r0, 'resize', -1, -1);
  assert.equal(shrunk.width, logic.minimumCrop);
  assert.equal(shrunk.height, logic.minimumCrop);
  const grown = logic.movedCrop(r0, 'resize', 1, 1);
  assert.equal(grown.width, 0.5);
  assert.equal(grown.height, 0.5);
});

test('the dock says what its pictures were drawn from', () => {
  assert.equal(logic.dockState({ unsaved: true }), 'Drawn from the unsaved draft');
  assert.equal(logic.dockState({ unsaved: false, sample: true, light: true, tried: true }),
    'Drawn from the saved design, with sample data, light, with tried values');
});

test('a button kind reads as words; other choices as they are', () => {
  assert.equal(logic.choiceText('actions[0].kind', 'incrementVariable'), 'Add to a variable');
  assert.equal(logic.choiceText('actions[1].kind', 'openURL'), 'Open a link');
  assert.equal(logic.choiceText('actions[].kind', 'resetVariable'), 'Reset a variable');
  assert.equal(logic.choiceText('layout.template', 'classic'), 'classic');
  assert.equal(logic.choiceText('actions[0].kind', 'somethingNew'), 'somethingNew');
});

test('assistantAbout turns the boxes off without a model, and says where words go with one', () => {
  const off = logic.assistantAbout({ configured: false, setup: "No local model is set up. Run 'weaver ai setup'." });
  assert.equal(off.enabled, false);
  assert.match(off.text, /weaver ai setup/);
  assert.equal(logic.assistantAbout(undefined).enabled, false);
  assert.match(logic.assistantAbout(undefined).text, /nothing is contacted/);
  const on = logic.assistantAbout({ configured: true, model: 'tiny:1b', url: 'http://127.0.0.1:11434',
    loopback: true });
  assert.equal(on.enabled, true);
  assert.match(on.text, /^Asks tiny:1b at http:\/\/127\.0\.0\.1:11434\. /);
  assert.doesNotMatch(on.text, /not this machine/);
  const far = logic.assistantAbout({ configured: true, model: 'm', url: 'http://10.0.0.2:8080', loopback: false });
  assert.match(far.text, /not this machine/);
});

test('assistantReport lists the changes, each refusal by its label, and says when nothing changed', () => {
  const labels = { 'style.padding': 'Padding' };
  const answer = {
    changed: true, changes: ['name: Classic → Night', 'style.accent: blue → teal'],
    refused: [{ field: 'style.padding', value: '99', message: 'out of range; allowed 0…32' },
      { field: 'coffee', value: 'x'.repeat(80), message: 'not a field a model may set' }],
    notes: ['I cannot add a photo'],
  };
  const r = logic.assistantReport('describe', answer, (k) => labels[k]);
  assert.match(r.headline, /^A new design from your words \(2 changes from the Classic start\)/);
  assert.match(r.headline, /nothing is saved until Save$/);
  assert.deepEqual(r.changes, answer.changes);
  assert.equal(r.refused[0].text, "Padding (style.padding) = '99': out of range; allowed 0…32");
  assert.equal(r.refused[0].field, 'style.padding');
  assert.equal(r.refused[1].text, "coffee = '" + 'x'.repeat(57) + "…': not a field a model may set");
  assert.deepEqual(r.notes, ['I cannot add a photo']);
  const one = logic.assistantReport('ask', { changed: true, changes: ['style.accent: blue → teal'] });
  assert.match(one.headline, /^Your edit: 1 change, in the draft/);
  assert.deepEqual(one.refused, []);
  const none = logic.assistantReport('ask', { changed: false, changes: [], refused: answer.refused });
  assert.equal(none.headline, 'Nothing changed: every edit the model proposed was refused');
  assert.equal(logic.assistantReport('ask', { changed: false }).headline,
    'Nothing changed: the model proposed no edit');
});
