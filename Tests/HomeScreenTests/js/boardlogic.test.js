// The Noise board's pure logic (Sources/App/HomeScreen/Resources/Noise/boardlogic.js): reading the server's
// board state into cards, the replace question, the summary line, and which fragments are share links.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const logic = require('../../../Sources/App/HomeScreen/Resources/Noise/boardlogic.js');

const board = {
  running: true, state: 'playing', presetID: 'night', masterVolume: 0.634, loudnessLufs: -23.04,
  referenceLoudnessLufs: -23, maximumLayers: 4,
  layers: [
    { layer: 1, enabled: true, volume: 0.8, sound: 'pink', name: 'Pink' },
    { layer: 2, enabled: false, volume: 0.8, sound: 'brown', name: 'Brown' },
    { layer: 3, enabled: true, volume: 0.55, sound: 'drops', name: 'Drops' },
    { layer: 4, enabled: true, volume: 0.3, name: 'Pink to brown noise (shaped)' },
  ],
  presets: [{ id: 'night', name: 'Night', user: true }, { id: 'rain', name: 'Rain', user: false }],
};

test('cardStates names the playing layer of each card; switched-off and shaped layers light none', () => {
  assert.deepEqual(logic.cardStates(board), { pink: { layer: 1, volume: 0.8 }, drops: { layer: 3, volume: 0.55 } });
  assert.deepEqual(logic.cardStates({ layers: [] }), {});
  assert.deepEqual(logic.cardStates(null), {});
});

test('the same sound twice lights its card for the first layer', () => {
  const twice = { layers: [{ layer: 1, enabled: true, volume: 0.2, sound: 'rain' },
    { layer: 2, enabled: true, volume: 0.9, sound: 'rain' }] };
  assert.deepEqual(logic.cardStates(twice), { rain: { layer: 1, volume: 0.2 } });
});

test('isFull counts playing layers against the maximum', () => {
  assert.equal(logic.isFull(board), false);
  const full = Object.assign({}, board, { layers: board.layers.map((l) => Object.assign({}, l, { enabled: true })) });
  assert.equal(logic.isFull(full), true);
  assert.deepEqual(logic.replaceChoices(full).map((c) => c.layer), [1, 2, 3, 4]);
  assert.equal(logic.replaceChoices(full)[2].label, 'Drops (layer 3, 55%)');
});

test('only #ww… fragments are links; the skip link\'s #content is not', () => {
  assert.equal(logic.linkInHash('#ww1.mix.abc.def'), 'ww1.mix.abc.def');
  assert.equal(logic.linkInHash('#content'), '');
  assert.equal(logic.linkInHash(''), '');
  assert.equal(logic.linkInHash(undefined), '');
});

test('summary and loudness lines', () => {
  assert.equal(logic.summaryLine(board), 'Playing: Night — Pink, Drops, Pink to brown noise (shaped) at master 63%');
  const stopped = Object.assign({}, board, { running: false, state: 'stopped', presetID: undefined, layers: [] });
  assert.equal(logic.summaryLine(stopped), 'Stopped (no player running: Play starts one): no sounds at master 63%');
  assert.equal(logic.loudnessText(board), 'Now −23.0 LUFS, by the loudness model.');
  assert.equal(logic.loudnessText({}), 'Now silent.');
});

// Seen with issue 41: "held at -23.0 LUFS (the loudness model's prediction: -23.6 LUFS)" said two
// loudnesses as one for a crackle mix the limiter holds under the reference. The gap is now said.
test('a prediction off the reference says by how much, not "held at" the reference', () => {
  const crackle = Object.assign({}, board, { loudnessLufs: -23.62 });
  assert.equal(logic.loudnessText(crackle), 'Now −23.6 LUFS, by the loudness model: 0.6 LU under the reference.');
  const loud = Object.assign({}, board, { loudnessLufs: -21.5 });
  assert.equal(logic.loudnessText(loud), 'Now −21.5 LUFS, by the loudness model: 1.5 LU over the reference.');
  // Within a tenth of a unit it reads as the reference itself.
  assert.equal(logic.loudnessText(Object.assign({}, board, { loudnessLufs: -22.96 })),
    'Now −23.0 LUFS, by the loudness model.');
});

test('loudness is written with a minus sign, never a hyphen, and no minus on zero', () => {
  assert.equal(logic.lufs(-23.04), '−23.0 LUFS');
  assert.equal(logic.lufs(-0.04), '0.0 LUFS');
  assert.equal(logic.lufs(1.25), '1.3 LUFS');
});
