// Corpus pages that are mostly acted on: a shop listing, a product page, a settings dashboard, and
// a page whose menus, panels and dialogs are hidden or off screen until opened.
import { LISTING_SCRIPT, QUESTION_SCRIPT } from './behaviour.mjs';
import { footer, header, icon, img, page, styles } from './layout.mjs';
import { TOPICS, cap, esc, headline, paragraph, person, plural, sentence, slug } from './text.mjs';

const SHOP = 'Fellside Outfitters';
const SHOP_SECTIONS = ['Men', 'Women', 'Kids', 'Footwear', 'Camping', 'Climbing', 'Sale'];
const SHOP_FOOT = {
  Help: ['Delivery', 'Returns', 'Size guide', 'Repairs', 'Contact us', 'Track an order'],
  Shops: ['Ambleside', 'Keswick', 'Fort William', 'Betws-y-Coed', 'Online only'],
  About: ['Our story', 'Sustainability', 'Careers', 'Affiliates', 'Reviews'],
  Account: ['Sign in', 'Orders', 'Wish list', 'Gift cards'],
};
const COLOURS = ['Slate', 'Moss', 'Ember', 'Glacier', 'Peat', 'Heather', 'Flint', 'Sand'];

function productName(r) {
  const t = TOPICS.outdoors;
  return `${r.pick(['Ridgeline', 'Cairn', 'Scree', 'Tarn', 'Bothy', 'Beck', 'Fellrunner', 'Howe'])} ${cap(r.pick(t.adjs))} ${cap(r.pick(t.nouns))}`;
}

function stars(r) {
  const n = r.int(30, 50) / 10;
  return `<span class="stars" role="img" aria-label="Rated ${n.toFixed(1)} out of 5">${icon('star')}${icon('star')}${icon('star')}${icon('star')}${icon('star')}</span> <span class="muted">(${r.int(2, 900)})</span>`;
}

/** A shop listing: filters (checkboxes, range, radios), sort, 48 product cards, pagination. */
export function shopListing(r) {
  const group = (title, type, items) =>
    `<fieldset><legend>${esc(title)}</legend>${items
      .map(
        (it, i) =>
          `<label><input type="${type}" name="${slug(title)}" value="${slug(it)}"${i === 0 && type === 'radio' ? ' checked' : ''}> ${esc(it)} <span class="muted">(${r.int(1, 240)})</span></label>`,
      )
      .join('')}</fieldset>`;
  const filters = [
    group('Category', 'checkbox', [
      'Jackets',
      'Fleeces',
      'Base layers',
      'Trousers',
      'Gloves',
      'Hats',
      'Socks',
    ]),
    group('Size', 'checkbox', ['XS', 'S', 'M', 'L', 'XL', 'XXL']),
    group('Colour', 'checkbox', COLOURS),
    group('Brand', 'checkbox', [
      'Fellside',
      'Northcote',
      'Harrow & Pike',
      'Greywether',
      'Lantern Co.',
      'Skerry',
    ]),
    group('Rating', 'radio', ['Any', '4 stars and up', '3 stars and up']),
    `<fieldset><legend>Price</legend><label for="pmin">From £</label><input id="pmin" type="number" min="0" value="0"> <label for="pmax">to £</label><input id="pmax" type="number" min="0" value="400"><input type="range" min="0" max="400" value="400" aria-label="Highest price"></fieldset>`,
    group('Features', 'checkbox', [
      'Waterproof',
      'Recycled fabric',
      'Hooded',
      'Packable',
      'Insulated',
      'Reflective',
    ]),
  ].join('\n');
  const cards = Array.from({ length: 48 }, (_, i) => {
    const name = productName(r);
    const price = r.int(12, 380);
    const sale = r.chance(0.25);
    const swatches = Array.from({ length: r.int(1, 5) }, () => r.pick(COLOURS))
      .map((c) => `<button class="swatch" type="button" aria-label="${c}" title="${c}"></button>`)
      .join('');
    return `<li class="card"><article aria-labelledby="p${i}">${sale ? '<span class="badge sale">Sale</span>' : ''}
<a href="/p/${slug(name)}-${1000 + i}" tabindex="-1">${img(`/img/p/${1000 + i}.jpg`, name, 400, 400)}</a>
<h2 class="u-fontsize-4" id="p${i}"><a href="/p/${slug(name)}-${1000 + i}">${esc(name)}</a></h2>
<p class="price">${sale ? `<del>£${price + r.int(10, 60)}.00</del> ` : ''}<strong>£${price}.${r.pick(['00', '50', '99'])}</strong></p>
<p>${stars(r)}</p><div class="swatches">${swatches}</div>
<button class="btn btn-primary" type="button">Add to basket</button> <button class="btn" type="button" aria-label="Save ${esc(name)} to your wish list">${icon('heart')}</button></article></li>`;
  }).join('\n');
  const pages = Array.from(
    { length: 9 },
    (_, i) => `<li><a href="?page=${i + 1}"${i === 0 ? ' aria-current="page"' : ''}>${i + 1}</a></li>`,
  ).join('');
  const css = styles(
    r,
    '.layout{display:grid;grid-template-columns:240px 1fr;gap:24px}.cards{display:grid;grid-template-columns:repeat(4,1fr);gap:16px;list-style:none;padding:0}.card{border:1px solid #e5e7eb;border-radius:8px;padding:8px;position:relative}.badge.sale{position:absolute;background:#b91c1c;color:#fff;padding:2px 6px}.swatch{width:18px;height:18px;border-radius:50%;border:1px solid #9ca3af;background:#d6d3d1;margin-right:4px}fieldset{border:0;border-top:1px solid #e5e7eb;padding:8px 0}fieldset label{display:block}.pagination{display:flex;gap:6px;list-style:none}',
    200,
  );
  const body = `${header(SHOP, SHOP_SECTIONS, { cart: true })}
<main class="wrap" id="main">
<nav aria-label="Breadcrumb" class="muted"><a href="/">Home</a> › <a href="/men/">Men</a> › Jackets</nav>
<h1>Men's jackets</h1><p>${esc(sentence(r, 'outdoors'))}</p>
<div class="layout"><aside aria-label="Filters"><h2>Filter</h2><form action="/men/jackets" method="get">${filters}<button class="btn btn-primary" type="submit">Apply filters</button> <a href="/men/jackets">Clear all</a></form></aside>
<section aria-label="Products"><div class="toolbar"><p>Showing 1–48 of 412 products</p><label for="sort">Sort by</label> <select id="sort" name="sort"><option>Recommended</option><option>Price, low to high</option><option>Price, high to low</option><option>Newest</option><option>Top rated</option></select>
<span role="group" aria-label="View"><button class="btn" type="button" aria-pressed="true">Grid</button><button class="btn" type="button" aria-pressed="false">List</button></span></div>
<ul class="cards">${cards}</ul>
<nav aria-label="Pagination"><ul class="pagination">${pages}<li><a href="?page=2" rel="next">Next page</a></li></ul></nav>
</section></div>
<section class="seo"><h2>Buying a jacket</h2>${Array.from({ length: 4 }, () => `<p>${paragraph(r, 'outdoors', 3, 6)}</p>`).join('')}</section>
</main>
${footer(r, SHOP, SHOP_FOOT)}
${LISTING_SCRIPT}`;
  return page({ title: `Men's jackets | ${SHOP}`, css, body });
}

/** A product page: gallery, options form, tabs with a spec table and reviews, a question form. */
export function product(r) {
  const name = productName(r);
  const thumbs = Array.from(
    { length: 7 },
    (_, i) =>
      `<li><button class="thumb" type="button" aria-label="Show image ${i + 1} of 7"${i === 0 ? ' aria-current="true"' : ''}>${img(`/img/g/${i}.jpg`, '', 80, 80)}</button></li>`,
  ).join('');
  const specs = Array.from(
    { length: 18 },
    () =>
      `<tr><th scope="row">${esc(cap(r.pick(TOPICS.outdoors.nouns)))} ${esc(r.pick(['weight', 'fabric', 'fit', 'length', 'care', 'origin']))}</th><td>${esc(cap(r.pick(TOPICS.outdoors.adjs)))}, ${r.int(80, 900)} g</td></tr>`,
  ).join('');
  const reviews = Array.from(
    { length: 22 },
    (_, i) =>
      `<li class="review"><h3>${esc(headline(r, 'outdoors'))}</h3><p>${stars(r)} by ${esc(person(r))}, <time datetime="2025-${String((i % 12) + 1).padStart(2, '0')}-10">${(i % 12) + 1}/2025</time></p><p>${paragraph(r, 'outdoors', 2, 5)}</p><p class="muted">Was this helpful? <button class="btn" type="button">Yes (${r.int(0, 30)})</button> <button class="btn" type="button">No (${r.int(0, 9)})</button></p></li>`,
  ).join('\n');
  const related = Array.from({ length: 10 }, (_, i) => {
    const n = productName(r);
    return `<li><a href="/p/${slug(n)}-${i}">${img(`/img/p/r${i}.jpg`, n, 200, 200)}<span>${esc(n)}</span></a> <strong>£${r.int(15, 250)}.00</strong></li>`;
  }).join('');
  const tab = (id, label, selected) =>
    `<button role="tab" id="tab-${id}" aria-controls="panel-${id}" aria-selected="${selected}" type="button"${selected ? '' : ' tabindex="-1"'}>${label}</button>`;
  const css = styles(
    r,
    '.product{display:grid;grid-template-columns:1fr 420px;gap:32px}.thumbs{display:flex;gap:8px;list-style:none;padding:0}.thumb{border:1px solid #d1d5db;padding:0;background:none}[role=tabpanel][hidden]{display:none}.options fieldset{border:0;padding:0}.sizes label{display:inline-block;border:1px solid #9ca3af;padding:6px 10px;margin:2px}.related ul{display:flex;gap:12px;overflow-x:auto;list-style:none;padding:0}.review{border-top:1px solid #e5e7eb}',
    200,
  );
  const body = `${header(SHOP, SHOP_SECTIONS, { cart: true })}
<main class="wrap" id="main">
<nav aria-label="Breadcrumb" class="muted"><a href="/">Home</a> › <a href="/men/">Men</a> › <a href="/men/jackets">Jackets</a> › ${esc(name)}</nav>
<div class="product"><section aria-label="Pictures">${img('/img/g/main.jpg', name, 800, 800)}<ul class="thumbs">${thumbs}</ul></section>
<section aria-labelledby="pname"><h1 id="pname">${esc(name)}</h1><p>${stars(r)} <a href="#reviews">Read reviews</a></p><p class="price"><strong>£${r.int(80, 320)}.00</strong> <span class="muted">or 3 payments, interest free</span></p>
<form class="options" action="/basket/add" method="post"><input type="hidden" name="sku" value="FS-${r.int(10_000, 99_999)}">
<fieldset><legend>Colour: Moss</legend>${COLOURS.slice(0, 5)
    .map(
      (c, i) =>
        `<label><input type="radio" name="colour" value="${slug(c)}"${i === 1 ? ' checked' : ''}> ${c}</label>`,
    )
    .join(' ')}</fieldset>
<fieldset class="sizes"><legend>Size</legend>${['XS', 'S', 'M', 'L', 'XL', 'XXL'].map((s, i) => `<label><input type="radio" name="size" value="${s}"${i === 5 ? ' disabled' : ''} required> ${s}</label>`).join('')}</fieldset>
<p><a href="/size-guide">Size guide</a></p>
<label for="qty">Quantity</label> <input id="qty" name="qty" type="number" min="1" max="10" value="1">
<p><label><input type="checkbox" name="gift"> Add gift wrapping (£3.50)</label></p>
<button class="btn btn-primary" type="submit">Add to basket</button> <button class="btn" type="button">${icon('heart')} Save</button>
<p class="muted">Free delivery over £50. <a href="/delivery">Delivery options</a> · <a href="/returns">Free returns</a></p>
<details><summary>Check stock in a shop</summary><label for="postcode">Postcode</label> <input id="postcode" name="postcode" autocomplete="postal-code"> <button class="btn" type="button">Find</button></details>
</form></section></div>
<section class="tabs" aria-label="Details"><div role="tablist" aria-label="Product details">${tab('desc', 'Description', true)}${tab('spec', 'Specification', false)}${tab('rev', 'Reviews (22)', false)}</div>
<div role="tabpanel" id="panel-desc" aria-labelledby="tab-desc">${Array.from({ length: 5 }, () => `<p>${paragraph(r, 'outdoors', 3, 6)}</p>`).join('')}<ul>${Array.from({ length: 8 }, () => `<li>${esc(sentence(r, 'outdoors'))}</li>`).join('')}</ul></div>
<div role="tabpanel" id="panel-spec" aria-labelledby="tab-spec" hidden><table><tbody>${specs}</tbody></table></div>
<div role="tabpanel" id="panel-rev" aria-labelledby="tab-rev" hidden><ol id="reviews">${reviews}</ol></div></section>
<section class="question" aria-labelledby="ask-h"><h2 id="ask-h">Ask a question</h2><form action="/questions" method="post">
<label for="ask-name">Name</label> <input id="ask-name" name="name" autocomplete="name" required>
<label for="ask-email">Email</label> <input id="ask-email" name="email" type="email" autocomplete="email" required>
<label for="ask-topic">Topic</label> <select id="ask-topic" name="topic"><option>Sizing</option><option>Materials</option><option>Delivery</option><option>Something else</option></select>
<label for="ask-text">Your question</label> <textarea id="ask-text" name="question" rows="4" maxlength="1000" required></textarea>
<label><input type="checkbox" name="consent" required> I agree that my question and first name may be shown on this page</label>
<button class="btn btn-primary" type="submit">Send question</button></form></section>
<section class="related" aria-labelledby="rel-h"><h2 id="rel-h">You may also like</h2><button class="btn" type="button" aria-label="Previous products">‹</button><ul>${related}</ul><button class="btn" type="button" aria-label="Next products">›</button></section>
</main>
<script>
for (const tab of document.querySelectorAll('[role=tab]')) tab.addEventListener('click', () => {
  for (const t of document.querySelectorAll('[role=tab]')) { t.setAttribute('aria-selected', String(t === tab)); document.getElementById(t.getAttribute('aria-controls')).hidden = t !== tab; }
});
</script>
${footer(r, SHOP, SHOP_FOOT)}
${QUESTION_SCRIPT}`;
  return page({ title: `${name} | ${SHOP}`, css, body });
}

/** A settings dashboard: switches, selects, a notification matrix, an API key table, a password form. */
export function settings(r) {
  const nav = [
    'Profile',
    'Account',
    'Notifications',
    'Security',
    'Billing',
    'Team',
    'Integrations',
    'API keys',
    'Audit log',
    'Danger zone',
  ];
  const switchRow = (label) => {
    const id = slug(label);
    return `<div class="row"><label for="sw-${id}">${esc(label)}</label><input id="sw-${id}" type="checkbox" role="switch"${r.chance(0.5) ? ' checked' : ''}><p class="muted">${esc(sentence(r, 'software'))}</p></div>`;
  };
  const switches = Array.from(
    { length: 16 },
    () => `${cap(r.pick(TOPICS.software.adjs))} ${plural(r.pick(TOPICS.software.nouns))}`,
  )
    .filter((v, i, a) => a.indexOf(v) === i)
    .map(switchRow)
    .join('\n');
  const events = Array.from(
    { length: 20 },
    () => `${cap(r.pick(TOPICS.software.nouns))} ${r.pick(TOPICS.software.past)}`,
  ).filter((v, i, a) => a.indexOf(v) === i);
  const matrix = events
    .map(
      (e) =>
        `<tr><th scope="row">${esc(e)}</th>${['Email', 'Push', 'SMS'].map((c) => `<td><input type="checkbox" aria-label="${esc(e)} by ${c}"${r.chance(0.4) ? ' checked' : ''}></td>`).join('')}</tr>`,
    )
    .join('\n');
  const keys = Array.from(
    { length: 9 },
    (_, i) =>
      `<tr><td>${esc(cap(r.pick(TOPICS.software.adjs)))} ${esc(r.pick(TOPICS.software.nouns))}</td><td><code>qs_live_…${r.int(1000, 9999)}</code></td><td>${r.int(1, 28)} Jan 2026</td><td>${r.pick(['read', 'read, write', 'admin'])}</td><td><button class="btn" type="button">Rotate</button> <button class="btn" type="button" aria-label="Revoke key ${i + 1}">Revoke</button></td></tr>`,
  ).join('\n');
  const audit = Array.from(
    { length: 80 },
    (_, i) =>
      `<tr><td><time>2026-03-${String((i % 28) + 1).padStart(2, '0')} ${String(r.int(0, 23)).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}</time></td><td>${esc(person(r))}</td><td>${esc(sentence(r, 'software'))}</td><td>192.0.2.${r.int(1, 254)}</td></tr>`,
  ).join('\n');
  const css = styles(
    r,
    '.app{display:grid;grid-template-columns:220px 1fr}.side{background:#f3f4f6;min-height:100vh;padding:16px}.side ul{list-style:none;padding:0}.panel{border:1px solid #e5e7eb;border-radius:8px;padding:16px;margin:16px 0}.row{display:grid;grid-template-columns:240px 60px 1fr;align-items:center;border-bottom:1px solid #f3f4f6;padding:8px 0}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #e5e7eb;padding:6px;text-align:left}.grid2{display:grid;grid-template-columns:1fr 1fr;gap:12px}',
    160,
  );
  const body = `<div class="app"><nav class="side" aria-label="Settings"><a class="logo" href="/">Quillstone Cloud</a><ul>${nav.map((n, i) => `<li><a href="#${slug(n)}"${i === 0 ? ' aria-current="page"' : ''}>${n}</a></li>`).join('')}</ul>
<p><label for="workspace">Workspace</label> <select id="workspace"><option>Harbour analytics</option><option>Personal</option><option>Staging</option></select></p></nav>
<main id="main" class="wrap"><header class="bar"><h1>Settings</h1><button class="btn" type="button" aria-label="Notifications">${icon('bell')} 3</button> <button class="btn" type="button" aria-haspopup="menu" aria-expanded="false">${icon('user')} ${esc(person(r))}</button></header>
<section class="panel" id="profile" aria-labelledby="profile-h"><h2 id="profile-h">Profile</h2><form class="grid2" action="/settings/profile" method="post">
<label>Full name <input name="name" autocomplete="name" value="${esc(person(r))}"></label><label>Display name <input name="display" value="harbourwatch"></label>
<label>Email <input type="email" name="email" value="team@example.org"></label><label>Phone <input type="tel" name="phone" autocomplete="tel"></label>
<label>Time zone <select name="tz">${['Europe/London', 'Europe/Dublin', 'Europe/Lisbon', 'Europe/Oslo', 'America/Halifax', 'Asia/Tokyo', 'Australia/Hobart'].map((z) => `<option>${z}</option>`).join('')}</select></label>
<label>Language <select name="lang"><option>English (UK)</option><option>English (US)</option><option>Deutsch</option><option>Français</option><option>Português</option></select></label>
<label>Date of birth <input type="date" name="dob"></label><label>Accent colour <input type="color" name="accent" value="#1d4ed8"></label>
<label>Bio <textarea name="bio" rows="3">${esc(sentence(r, 'software'))}</textarea></label><label>Text size <input type="range" name="size" min="12" max="22" value="16"></label>
<fieldset><legend>Theme</legend><label><input type="radio" name="theme" value="light" checked> Light</label><label><input type="radio" name="theme" value="dark"> Dark</label><label><input type="radio" name="theme" value="auto"> Follow the system</label></fieldset>
<div><button class="btn btn-primary" type="submit">Save profile</button> <button class="btn" type="reset">Discard changes</button></div></form></section>
<section class="panel" id="account" aria-labelledby="account-h"><h2 id="account-h">Preferences</h2>${switches}</section>
<section class="panel" id="notifications" aria-labelledby="notif-h"><h2 id="notif-h">Notifications</h2><table><thead><tr><th>Event</th><th>Email</th><th>Push</th><th>SMS</th></tr></thead><tbody>${matrix}</tbody></table>
<label for="digest">Digest</label> <select id="digest"><option>Never</option><option selected>Daily</option><option>Weekly</option></select> <label for="quiet-from">Quiet hours from</label> <input id="quiet-from" type="time" value="22:00"> <label for="quiet-to">to</label> <input id="quiet-to" type="time" value="07:00"></section>
<section class="panel" id="security" aria-labelledby="sec-h"><h2 id="sec-h">Change password</h2><form action="/settings/password" method="post">
<input type="text" name="username" autocomplete="username" value="harbourwatch" hidden>
<label for="pw-current">Current password</label> <input id="pw-current" type="password" autocomplete="current-password">
<label for="pw-new">New password</label> <input id="pw-new" type="password" autocomplete="new-password" minlength="12">
<label for="pw-again">Repeat the new password</label> <input id="pw-again" type="password" autocomplete="new-password">
<p class="muted">Use at least 12 characters. A phrase of several words is easier to remember.</p>
<label><input type="checkbox" name="signout"> Sign out of every other device</label> <button class="btn btn-primary" type="submit">Change password</button></form>
<h3>Two-step sign-in</h3><p>${esc(sentence(r, 'software'))}</p><button class="btn" type="button">Set up an authenticator app</button> <button class="btn" type="button">Show recovery codes</button></section>
<section class="panel" id="api-keys" aria-labelledby="keys-h"><h2 id="keys-h">API keys</h2><button class="btn btn-primary" type="button">New key</button><table><thead><tr><th>Name</th><th>Key</th><th>Created</th><th>Scope</th><th>Actions</th></tr></thead><tbody>${keys}</tbody></table></section>
<section class="panel" id="audit-log" aria-labelledby="audit-h"><h2 id="audit-h">Audit log</h2><p><label for="audit-filter">Filter</label> <input id="audit-filter" type="search"> <label for="audit-from">From</label> <input id="audit-from" type="date"> <button class="btn" type="button">Export CSV</button></p><table><thead><tr><th>When</th><th>Who</th><th>What</th><th>Address</th></tr></thead><tbody>${audit}</tbody></table></section>
<section class="panel" id="danger-zone" aria-labelledby="danger-h"><h2 id="danger-h">Danger zone</h2><p>${esc(sentence(r, 'software'))}</p><button class="btn" type="button">Transfer workspace</button> <button class="btn" type="button">Delete workspace</button></section>
<dialog id="confirm-delete" aria-labelledby="confirm-h"><h2 id="confirm-h">Delete this workspace?</h2><p>Type the workspace name to confirm.</p><input aria-label="Workspace name"><button class="btn" type="button">Cancel</button><button class="btn" type="button">Delete</button></dialog>
</main></div>`;
  return page({ title: 'Settings – Quillstone Cloud', css, body });
}

/** A recipe magazine page whose menus, panels, dialogs and labels are hidden or off screen. */
export function hiddenParts(r) {
  const menu = [
    'Recipes',
    'Bread',
    'Cakes',
    'Pastry',
    'Techniques',
    'Equipment',
    'Seasonal',
    'Videos',
    'Shop',
    'Classes',
  ]
    .map(
      (m) =>
        `<li><a href="/${slug(m)}">${m}</a><ul>${Array.from({ length: 6 }, () => `<li><a href="/${slug(m)}/${r.int(100, 999)}">${esc(headline(r, 'baking'))}</a></li>`).join('')}</ul></li>`,
    )
    .join('');
  const faq = Array.from(
    { length: 16 },
    (_, i) =>
      `<details${i === 0 ? ' open' : ''}><summary>${esc(headline(r, 'baking'))}?</summary><p>${paragraph(r, 'baking', 2, 4)}</p></details>`,
  ).join('\n');
  const clipped = Array.from(
    { length: 20 },
    () => `<div class="tip"><h3>${esc(headline(r, 'baking'))}</h3><p>${esc(sentence(r, 'baking'))}</p></div>`,
  ).join('');
  const steps = Array.from(
    { length: 16 },
    (_, i) => `<li><h3>Step ${i + 1}</h3><p>${paragraph(r, 'baking', 2, 4)}</p></li>`,
  ).join('');
  const css = styles(
    r,
    '.drawer{position:fixed;top:0;left:0;width:320px;height:100vh;background:#fff;transform:translateX(-100%);overflow:auto}.mega ul ul{display:none}.offscreen{position:absolute;left:-10000px;top:auto}.invisible{visibility:hidden}.faded{opacity:0}.clipbox{height:220px;overflow:hidden}.zero{height:0;overflow:hidden}.covered{position:relative}.covered .cover{position:absolute;inset:0;background:#fff}.modal-backdrop{display:none;position:fixed;inset:0;background:rgba(0,0,0,.5)}.cookie{position:fixed;bottom:0;left:0;right:0;background:#111827;color:#fff;padding:12px}',
    140,
  );
  const body = `<a class="sr-only" href="#main">Skip to the recipe</a>
<div class="drawer" id="drawer" aria-label="Menu" role="navigation"><button class="btn" type="button" aria-label="Close menu">${icon('close')}</button><ul>${menu}</ul></div>
${header('Proving Drawer', ['Recipes', 'Bread', 'Cakes', 'Techniques', 'Videos'])}
<nav class="mega wrap" aria-label="Recipe types"><ul>${menu}</ul></nav>
<main id="main" class="wrap"><article><h1>${esc(headline(r, 'baking'))}</h1>
<p class="offscreen">This page has a printable version and a shopping list.</p>
<div class="covered"><p>${esc(sentence(r, 'baking'))}</p><div class="cover"></div></div>
<p>${paragraph(r, 'baking', 3, 5)}</p>
<ul class="meta"><li>Prep 40 min</li><li>Prove ${r.int(8, 16)} h</li><li>Bake 45 min</li><li>Makes 2 loaves</li></ul>
<h2>Ingredients</h2><ul>${Array.from({ length: 9 }, () => `<li><label><input type="checkbox"> ${r.int(5, 600)} g ${esc(r.pick(TOPICS.baking.nouns))}</label></li>`).join('')}</ul>
<h2>Method</h2><ol>${steps}</ol>
<div class="tooltip invisible" role="tooltip">${esc(sentence(r, 'baking'))}</div>
<p class="faded">${esc(sentence(r, 'baking'))} ${esc(sentence(r, 'baking'))}</p>
<div class="zero"><p>${esc(sentence(r, 'baking'))}</p></div>
<p hidden>${esc(sentence(r, 'baking'))}</p>
<div aria-hidden="true" class="decor">${esc(sentence(r, 'baking'))}</div>
<h2>Frequently asked</h2>${faq}
<h2>Tips from readers</h2><div class="clipbox">${clipped}</div><button class="btn" type="button">Show all tips</button>
</article></main>
<div class="modal-backdrop"><div role="dialog" aria-modal="true" aria-labelledby="sub-h"><h2 id="sub-h">Join the bakery club</h2><p>${esc(sentence(r, 'baking'))}</p><form><label for="club-email">Email</label><input id="club-email" type="email"><button class="btn btn-primary" type="submit">Join</button></form></div></div>
<div class="cookie" role="region" aria-label="Cookies"><p>We use cookies to remember your saved recipes. <button class="btn" type="button">Accept</button> <button class="btn" type="button">Choose cookies</button></p></div>
${footer(r, 'Proving Drawer', { Recipes: ['Bread', 'Cakes', 'Pastry', 'Biscuits'], Learn: ['Classes', 'Videos', 'Glossary'], Help: ['Contact', 'FAQ', 'Accessibility'], Legal: ['Privacy', 'Cookies', 'Terms'] })}`;
  return page({ title: 'Overnight loaf | Proving Drawer', css, body });
}
