  // The board's pure logic (Tests/HomeScreenTests/js/boardlogic.test.js checks it): which card plays which
  // layer, what the replace question offers, the lines the page shows. The server decides every sound,
  // slot and loudness (`GET /api/board`); this only reads its answer.

  // The layers that play, each once, by the card that plays it: { soundID: { layer, volume } }.
  function cardStates(board) {
    const states = {};
    for (const l of (board && board.layers) || []) {
      if (l.enabled && l.sound && !states[l.sound]) states[l.sound] = { layer: l.layer, volume: l.volume };
    }
    return states;
  }
  function playingLayers(board) { return ((board && board.layers) || []).filter((l) => l.enabled); }
  // A tap on a card that is not playing must ask which layer to replace.
  function isFull(board) { return playingLayers(board).length >= board.maximumLayers; }
  function percent(v) { return Math.round(Number(v) * 100) + '%'; }
  // "−23.6 LUFS", with a minus sign (U+2212) as the Swift side and the Calibrate page write it, not a hyphen.
  function lufs(v) {
    const text = Number(v).toFixed(1).replace(/^-(0\.0)$/, '$1');
    return (text.startsWith('-') ? '\u2212' + text.slice(1) : text) + ' LUFS';
  }
  // What the replace question offers: each playing layer, named.
  function replaceChoices(board) {
    return playingLayers(board).map((l) => ({ layer: l.layer,
      label: l.name + ' (layer ' + l.layer + ', ' + percent(l.volume) + ')' }));
  }
  // A share link in a page's address (`#ww1.mix.…`) or nothing: other fragments (`#content`) are the page's.
  function linkInHash(hash) {
    const h = String(hash || '');
    return h.startsWith('#ww') ? h.slice(1) : '';
  }
  // The model's loudness of the mix now, and how far it is from the reference the board aims at: a crackle
  // mix the limiter holds under the reference said "held at −23.0 LUFS (prediction: −23.6 LUFS)".
  function loudnessText(board) {
    if (board.loudnessLufs == null) return 'Now silent.';
    const now = 'Now ' + lufs(board.loudnessLufs) + ', by the loudness model';
    const off = board.loudnessLufs - board.referenceLoudnessLufs;
    if (!Number.isFinite(off) || Math.abs(off) < 0.1) return now + '.';
    return now + ': ' + Math.abs(off).toFixed(1) + ' LU ' + (off < 0 ? 'under' : 'over') + ' the reference.';
  }
  // "Playing: Rain, Pink at master 63%" / "Stopped (Play starts a player): …".
  function summaryLine(board) {
    const names = playingLayers(board).map((l) => l.name);
    const what = names.length ? names.join(', ') : 'no sounds';
    const preset = (board.presets || []).find((p) => p.id === board.presetID);
    const label = preset ? preset.name + ' — ' : '';
    const state = board.state.charAt(0).toUpperCase() + board.state.slice(1);
    const note = board.running ? '' : ' (no player running: Play starts one)';
    return state + note + ': ' + label + what + ' at master ' + percent(board.masterVolume);
  }
  if (typeof module === 'object') {
    module.exports = { cardStates, playingLayers, isFull, percent, lufs, replaceChoices, linkInHash, loudnessText,
      summaryLine };
  }
