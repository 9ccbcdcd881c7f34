// The pieces every corpus page shares: the document shell, a style sheet of the size real sites
// ship, icons, a site header and a footer full of links. Written for this project.
import { cap, esc, slug } from './text.mjs';

const ICONS = {
  menu: 'M3 6h18M3 12h18M3 18h18',
  search: 'M11 4a7 7 0 1 0 0 14a7 7 0 1 0 0-14zM16 16l5 5',
  cart: 'M3 4h2l3 11h10l3-8H7M10 20a1 1 0 1 0 0.1 0M17 20a1 1 0 1 0 0.1 0',
  user: 'M12 12a4 4 0 1 0 0-8a4 4 0 1 0 0 8zM4 21c1-4 5-6 8-6s7 2 8 6',
  heart: 'M12 20l-7-7a4 4 0 0 1 7-5a4 4 0 0 1 7 5z',
  star: 'M12 3l3 6 6 1-4.5 4 1 6-5.5-3-5.5 3 1-6L3 10l6-1z',
  close: 'M6 6l12 12M18 6L6 18',
  chevron: 'M9 6l6 6-6 6',
  share: 'M18 8a3 3 0 1 0 0-0.1M6 12l12-4M6 12l12 4',
  bell: 'M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20h4',
  gear: 'M12 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6zM12 2v3M12 19v3M2 12h3M19 12h3',
};

export function icon(name, label = '') {
  const path = ICONS[name] ?? ICONS.chevron;
  const a11y = label === '' ? 'aria-hidden="true"' : `role="img" aria-label="${esc(label)}"`;
  return `<svg class="icon icon-${name}" viewBox="0 0 24 24" width="20" height="20" ${a11y}><path d="${path}" fill="none" stroke="currentColor" stroke-width="2"/></svg>`;
}

const COLORS = ['#1f2937', '#374151', '#2563eb', '#b91c1c', '#047857', '#92400e', '#6d28d9', '#0f766e'];

/** A style sheet: a base, then `extra` rules of the page, then a utility set of the given size. */
export function styles(r, extra, utilities = 120) {
  const rules = [
    '*,*::before,*::after{box-sizing:border-box}',
    'body{margin:0;font:16px/1.55 system-ui,sans-serif;color:#1f2937;background:#fff}',
    'a{color:#1d4ed8}a:hover{text-decoration:underline}',
    'img{max-width:100%;height:auto;background:#e5e7eb}',
    '.icon{display:inline-block;vertical-align:middle}',
    '.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}',
    '.wrap{max-width:1180px;margin:0 auto;padding:0 16px}',
    '.site-header{border-bottom:1px solid #e5e7eb;background:#fff;position:sticky;top:0;z-index:10}',
    '.site-header .bar{display:flex;align-items:center;gap:16px;height:60px}',
    '.site-header nav ul{display:flex;gap:14px;list-style:none;margin:0;padding:0}',
    '.logo{font-weight:700;font-size:20px;text-decoration:none;color:#111827}',
    '.site-footer{background:#111827;color:#d1d5db;margin-top:48px;padding:32px 0;font-size:14px}',
    '.site-footer a{color:#e5e7eb}',
    '.site-footer .cols{display:grid;grid-template-columns:repeat(4,1fr);gap:24px}',
    '.site-footer ul{list-style:none;padding:0;margin:0}',
    '.btn{display:inline-flex;align-items:center;gap:6px;padding:8px 14px;border:1px solid #d1d5db;border-radius:6px;background:#fff;cursor:pointer;font:inherit}',
    '.btn-primary{background:#1d4ed8;color:#fff;border-color:#1d4ed8}',
    '.muted{color:#6b7280;font-size:14px}',
    extra,
  ];
  const props = ['margin', 'padding', 'gap', 'font-size', 'border-radius'];
  for (let i = 0; i < utilities; i++) {
    const prop = props[i % props.length];
    rules.push(`.u-${prop.replace('-', '')}-${i}{${prop}:${(i % 12) * 2 + 2}px}`);
    if (i % 9 === 0) rules.push(`.t-${i}{color:${r.pick(COLORS)}}`);
    if (i % 15 === 0)
      rules.push(`@media (max-width:${600 + i * 2}px){.u-${prop.replace('-', '')}-${i}{${prop}:${i % 5}px}}`);
  }
  return rules.join('\n');
}

export function page({ title, lang = 'en', css, body, head = '', bodyClass = '' }) {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<meta name="description" content="${esc(title)}">
<link rel="icon" href="data:,">
${head}
<style>
${css}
</style>
</head>
<body class="${bodyClass}">
${body}
</body>
</html>
`;
}

/** A site header: logo, a row of section links, optional search and account links. */
export function header(site, sections, { search = true, account = true, cart = false } = {}) {
  const links = sections.map((s) => `<li><a href="/${slug(s)}/">${esc(s)}</a></li>`).join('');
  return `<header class="site-header"><div class="wrap bar">
<button class="btn menu-toggle" type="button" aria-label="Open menu" aria-expanded="false">${icon('menu')}</button>
<a class="logo" href="/">${esc(site)}</a>
<nav aria-label="Main"><ul>${links}</ul></nav>
${search ? `<form class="search" role="search" action="/search"><label class="sr-only" for="q">Search ${esc(site)}</label><input id="q" name="q" type="search" placeholder="Search"><button class="btn" type="submit">${icon('search', 'Search')}</button></form>` : ''}
${account ? `<a class="account" href="/account/login">${icon('user')} Sign in</a>` : ''}
${cart ? `<a class="cart" href="/basket">${icon('cart')} Basket <span class="badge">0</span></a>` : ''}
</div></header>`;
}

/** A footer: four columns of links, a newsletter form, the small print. */
export function footer(r, site, columns) {
  const cols = Object.entries(columns)
    .map(
      ([head, items]) =>
        `<div><h2 class="u-fontsize-3">${esc(head)}</h2><ul>${items
          .map((i) => `<li><a href="/${slug(head)}/${slug(i)}">${esc(i)}</a></li>`)
          .join('')}</ul></div>`,
    )
    .join('\n');
  return `<footer class="site-footer"><div class="wrap">
<div class="cols">
${cols}
</div>
<form class="newsletter" action="/newsletter" method="post"><label for="nl-email">Get our weekly email</label>
<input id="nl-email" name="email" type="email" autocomplete="email" placeholder="you@example.org">
<button class="btn btn-primary" type="submit">Subscribe</button></form>
<p class="small">© 2026 ${esc(site)}. Registered office ${r.int(1, 99)} ${cap('market street')}. <a href="/privacy">Privacy</a> · <a href="/cookies">Cookies</a> · <a href="/terms">Terms</a> · <a href="/accessibility">Accessibility</a></p>
</div></footer>`;
}

/** An image a relative URL away (the corpus server answers 404 at once), with its box reserved. */
export function img(src, alt, w = 640, h = 400, cls = '') {
  return `<img${cls === '' ? '' : ` class="${cls}"`} src="${src}" alt="${esc(alt)}" width="${w}" height="${h}" loading="lazy">`;
}
