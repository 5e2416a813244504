  // The server's colour names and the boundaries between them (ColourName.bands, written in as the
  // script is served: `[[below, name], …, [null, name]]`), so a slider names its colour as the server
  // does while it moves.
  const colourBands = /* @colourBands */ [];
  function colourName(c, bands = colourBands) {
    for (const [below, name] of bands) if (below === null || c < below) return name;
    return '';
  }
  if (typeof module === 'object') module.exports = { colourName };
