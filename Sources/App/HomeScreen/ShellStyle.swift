/// The app's one shared stylesheet (`/static/shell.css`): colour and type tokens for dark and
/// light (following `prefers-color-scheme`), the app bar and navigation, and the parts every page
/// builds from (cards, buttons, inputs, pills, badges). Pages add their own sheet after this one
/// and use its custom properties, so a change of palette here changes every page.
enum ShellStyle {
    static let css = """
        :root {
          color-scheme: dark light;
          --bg: #0d0e12; --bg-glow: rgba(94, 92, 230, 0.16); --surface: #15161c; --card: #1b1d24; --card-2: #23262f;
          --line: rgba(255, 255, 255, 0.08); --line-strong: rgba(255, 255, 255, 0.16);
          --fg: #eef0f5; --muted: #9aa1b0; --faint: #6b7280;
          --accent: #7c7cff; --accent-2: #3dd6c6; --accent-fg: #0d0e12; --accent-soft: rgba(124, 124, 255, 0.16);
          --danger: #ff6b6b; --danger-soft: rgba(255, 107, 107, 0.14); --ok: #3ddc97; --warn: #ffb84d;
          --radius: 16px; --radius-s: 10px; --shadow: 0 10px 30px rgba(0, 0, 0, 0.35);
          --font: Inter, "Cantarell", system-ui, -apple-system, "Segoe UI", sans-serif;
          --mono: "JetBrains Mono", "DejaVu Sans Mono", ui-monospace, monospace;
        }
        @media (prefers-color-scheme: light) {
          :root {
            --bg: #f3f4f8; --bg-glow: rgba(94, 92, 230, 0.10); --surface: #ffffff; --card: #ffffff; --card-2: #f0f1f6;
            --line: rgba(15, 20, 40, 0.08); --line-strong: rgba(15, 20, 40, 0.18);
            --fg: #14161c; --muted: #5b6272; --faint: #8a90a0;
            --accent: #4f4fe0; --accent-2: #0fa597; --accent-fg: #ffffff; --accent-soft: rgba(79, 79, 224, 0.10);
            --danger: #d43f3f; --danger-soft: rgba(212, 63, 63, 0.10); --ok: #168a5a; --warn: #b86e00;
            --shadow: 0 8px 24px rgba(20, 24, 40, 0.08);
          }
        }
        * { box-sizing: border-box; }
        /* `hidden` wins over any class that sets display (scripts hide rows, groups and markers). */
        [hidden] { display: none !important; }
        html { background: var(--bg); }
        body {
          margin: 0; min-height: 100vh; font: 15px/1.45 var(--font); color: var(--fg);
          background: radial-gradient(1200px 500px at 10% -10%, var(--bg-glow), transparent 70%), var(--bg);
          -webkit-font-smoothing: antialiased;
        }
        a { color: var(--accent); }
        :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        .skip { position: absolute; left: -999px; top: 8px; background: var(--accent); color: var(--accent-fg);
          padding: 8px 12px; border-radius: 8px; z-index: 10; }
        .skip:focus { left: 8px; }
        main:focus { outline: none; }

        /* App bar */
        header.app-bar {
          position: sticky; top: 0; z-index: 5; display: flex; flex-wrap: wrap; align-items: center; gap: 10px 22px;
          padding: 12px 24px; margin: 0; background: color-mix(in srgb, var(--bg) 82%, transparent);
          backdrop-filter: blur(14px); border-bottom: 1px solid var(--line);
        }
        .brand { display: flex; align-items: center; gap: 10px; color: var(--fg); text-decoration: none;
          font-weight: 700; letter-spacing: -0.01em; font-size: 17px; }
        .brand-mark {
          width: 26px; height: 26px; border-radius: 8px; display: inline-block;
          background: conic-gradient(from 210deg, var(--accent), var(--accent-2), #ff8a5c, var(--accent));
          box-shadow: inset 0 0 0 5px color-mix(in srgb, var(--bg) 70%, transparent);
        }
        .app-nav ul { display: flex; gap: 4px; list-style: none; margin: 0; padding: 3px; border-radius: 12px;
          background: var(--card); border: 1px solid var(--line); }
        .app-nav a {
          display: block; padding: 6px 14px; border-radius: 9px; color: var(--muted); text-decoration: none;
            font-weight: 550; font-size: 14px;
        }
        .app-nav a:hover { color: var(--fg); background: var(--card-2); }
        .app-nav a[aria-current="page"] { color: var(--accent-fg); background: var(--accent); }
        header.app-bar .live { margin: 0 0 0 auto; color: var(--muted); font-size: 13px; min-height: 1.3em;
          max-width: 46ch; }

        main { padding: 12px 24px 56px; }
        h1, h2, h3 { letter-spacing: -0.01em; }
        .page-title { font-size: 26px; margin: 18px 0 4px; }
        .page-lede { color: var(--muted); margin: 0 0 18px; }

        /* Building blocks */
        .card { background: var(--card); border: 1px solid var(--line); border-radius: var(--radius);
          box-shadow: var(--shadow); }
        .btn {
          display: inline-flex; align-items: center; justify-content: center; gap: 6px; font: inherit; font-weight: 600;
            font-size: 14px;
          padding: 8px 14px; border-radius: 10px; border: 1px solid var(--line-strong); background: var(--card-2);
            color: var(--fg);
          cursor: pointer; text-decoration: none; min-height: 36px;
        }
        .btn:hover { border-color: var(--accent); }
        .btn:disabled { opacity: 0.45; cursor: default; border-color: var(--line); }
        .btn.primary { background: var(--accent); border-color: transparent; color: var(--accent-fg); }
        .btn.primary:hover { filter: brightness(1.08); }
        .btn.ghost { background: transparent; border-color: transparent; color: var(--muted); }
        .btn.ghost:hover { color: var(--fg); background: var(--card-2); }
        .pill { display: inline-block; padding: 2px 8px; border-radius: 999px; font-size: 11px; font-weight: 700;
          letter-spacing: 0.03em; text-transform: uppercase; background: var(--card-2); color: var(--muted); }
        .pill.pro { background: linear-gradient(90deg, #ffb84d, #ff7a59); color: #1b1208; }
        .pill.warn { background: var(--danger-soft); color: var(--danger); text-transform: none; letter-spacing: 0;
          font-weight: 600; }
        input[type=text], input[type=number], input[type=search], input[type=date], select, textarea {
          font: inherit; font-size: 14px; color: var(--fg); background: var(--surface);
            border: 1px solid var(--line-strong);
          border-radius: var(--radius-s); padding: 7px 10px; min-height: 36px; width: 100%;
        }
        textarea { resize: vertical; min-height: 60px; }
        input:focus, select:focus, textarea:focus { border-color: var(--accent); outline: none;
          box-shadow: 0 0 0 3px var(--accent-soft); }
        input[aria-invalid="true"], select[aria-invalid="true"], textarea[aria-invalid="true"] {
          border-color: var(--danger); box-shadow: 0 0 0 3px var(--danger-soft); }
        input[type=range] { accent-color: var(--accent); width: 100%; }
        input[type=checkbox] { accent-color: var(--accent); width: 18px; height: 18px; }
        .muted { color: var(--muted); }
        .mono { font-family: var(--mono); font-size: 12.5px; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
          white-space: nowrap; }

        @media (max-width: 640px) {
          header.app-bar { padding: 10px 12px; gap: 8px 12px; }
          .app-nav { order: 3; width: 100%; overflow-x: auto; }
          .app-nav a { padding: 6px 10px; }
          header.app-bar .live { margin-left: 0; }
          main { padding: 8px 12px 40px; }
        }
        """
}
