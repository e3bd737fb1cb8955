const escapeHtml = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/**
 * The host page: the entry module, its CSS, modulepreload hints for the chunks the entry imports
 * statically, and a spinner shown until React mounts (no text, so no language to pick yet).
 */
export function renderIndexHtml({ title, script, styles = [], preloads = [] }) {
  const lines = [
    '<!doctype html>',
    '<html lang="zh-CN">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    '<style>#lp-boot{position:fixed;inset:0;display:flex;align-items:center;justify-content:center}' +
      '#lp-boot i{width:28px;height:28px;border:3px solid #d3d8de;border-top-color:#2d72d2;border-radius:50%;animation:lp-spin .8s linear infinite}' +
      '@keyframes lp-spin{to{transform:rotate(360deg)}}</style>',
    ...styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    ...preloads.map((href) => `<link rel="modulepreload" href="${escapeHtml(href)}">`),
    `<script type="module" src="${escapeHtml(script)}"></script>`,
    '</head>',
    '<body>',
    '<div id="root"><div id="lp-boot" role="progressbar" aria-busy="true"><i></i></div></div>',
    '</body>',
    '</html>',
    '',
  ];
  return lines.join('\n');
}
