  // An element with its attributes and, when given, its text: how the pages' scripts build what they add
  // (library.js, board.js).
  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }
