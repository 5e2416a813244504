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
