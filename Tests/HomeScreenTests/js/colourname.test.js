// The mixer's colour names while a slider moves (Sources/App/HomeScreen/Resources/Home/colourname.js), with the
// server's bands as `weaver serve` writes them in (ColourName.bands; ColourNameTests checks that part).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { colourName } = require('../../../Sources/App/HomeScreen/Resources/Home/colourname.js');

const bands = [[0.25, 'white'], [0.75, 'white to pink'], [1.25, 'pink'], [1.75, 'pink to brown'], [null, 'brown']];

test('each band covers up to, not including, its bound', () => {
  assert.equal(colourName(0, bands), 'white');
  assert.equal(colourName(0.2499, bands), 'white');
  assert.equal(colourName(0.25, bands), 'white to pink');
  assert.equal(colourName(1, bands), 'pink');
  assert.equal(colourName(1.5, bands), 'pink to brown');
  assert.equal(colourName(1.75, bands), 'brown');
  assert.equal(colourName(2, bands), 'brown');
});

test('the file as stored has no bands: the server writes them in', () => {
  assert.equal(colourName(1), '');
});
