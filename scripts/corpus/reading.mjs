// Corpus pages that are mostly read: a long article, a documentation page, a news front page and a
// forum thread. Each builder takes a seeded generator and returns the page's HTML.
import { footer, header, icon, img, page, styles } from './layout.mjs';
import { TOPICS, cap, esc, headline, paragraph, person, plural, sentence, slug } from './text.mjs';

const FOOT = {
  'About us': ['Our team', 'Jobs', 'Contact', 'Corrections', 'Press office', 'Ethics policy'],
  Sections: ['Local', 'Energy', 'Environment', 'Business', 'Culture', 'Sport', 'Opinion', 'Weather'],
  Help: ['Subscriptions', 'Delivery', 'Apps', 'Accessibility', 'Complaints', 'Archive'],
  Follow: ['Newsletter', 'Podcast', 'Events', 'RSS feeds', 'Reader panel'],
};

/** A long article: headings, figures, a pull quote, a table, footnotes, related links, comments. */
export function article(r) {
  const notes = [];
  const note = () => {
    notes.push(sentence(r, 'harbour'));
    const n = notes.length;
    return `<sup id="ref-${n}"><a href="#note-${n}" aria-describedby="footnotes-label">${n}</a></sup>`;
  };
  const sections = [];
  for (let s = 1; s <= 14; s++) {
    const parts = [`<h2 id="part-${s}">${esc(headline(r, 'harbour'))}</h2>`];
    const paras = r.int(5, 9);
    for (let p = 0; p < paras; p++) {
      parts.push(
        `<p>${paragraph(r, 'harbour', 3, 7, () => `/archive/${r.int(2019, 2026)}/${r.int(100, 999)}`)}${r.chance(0.3) ? note() : ''}</p>`,
      );
      if (p === 2)
        parts.push(
          `<figure class="wide">${img(`/media/harbour-${s}.jpg`, sentence(r, 'harbour'), 1200, 675)}<figcaption>${esc(sentence(r, 'harbour'))} <span class="credit">Photo: ${esc(person(r))}</span></figcaption></figure>`,
        );
      if (p === 4 && s % 3 === 0)
        parts.push(
          `<blockquote class="pull"><p>“${esc(sentence(r, 'harbour'))}”</p><cite>${esc(person(r))}</cite></blockquote>`,
        );
      if (p === 3 && s === 5) parts.push(tideTable(r));
      if (p === 1 && s % 2 === 0) parts.push(`<h3>${esc(headline(r, 'harbour'))}</h3>`);
    }
    sections.push(`<section aria-labelledby="part-${s}">${parts.join('\n')}</section>`);
  }
  const toc = sections.map((_, i) => `<li><a href="#part-${i + 1}">Part ${i + 1}</a></li>`).join('');
  const footnotes = notes
    .map(
      (n, i) =>
        `<li id="note-${i + 1}">${esc(n)} <a href="#ref-${i + 1}" aria-label="Back to reference ${i + 1}">↩</a></li>`,
    )
    .join('\n');
  const related = Array.from(
    { length: 8 },
    () => `<li><a href="/energy/${r.int(1000, 9999)}">${esc(headline(r, 'harbour'))}</a></li>`,
  ).join('');
  const comments = Array.from(
    { length: 24 },
    (_, i) =>
      `<li class="comment" id="c${i + 1}"><div class="who"><strong>${esc(person(r))}</strong> <time datetime="2026-03-${String((i % 27) + 1).padStart(2, '0')}">${(i % 27) + 1} March</time></div><p>${esc(sentence(r, 'harbour'))} ${esc(sentence(r, 'harbour'))}</p><div class="acts"><button class="btn" type="button">Reply</button> <button class="btn" type="button" aria-label="Like this comment">${icon('heart')} ${r.int(0, 80)}</button> <a href="/report?c=${i + 1}">Report</a></div></li>`,
  ).join('\n');
  const css = styles(
    r,
    'article{max-width:720px;margin:0 auto}figure.wide{margin:32px -120px}figcaption{font-size:14px;color:#4b5563}.pull{font-size:26px;border-left:4px solid #1d4ed8;margin:32px 0;padding-left:20px}.toc{position:fixed;left:16px;top:120px;width:180px;font-size:14px}.comment{border-top:1px solid #e5e7eb;padding:12px 0}.footnotes{font-size:14px}table{border-collapse:collapse;width:100%}td,th{border:1px solid #d1d5db;padding:6px}',
    160,
  );
  const title = headline(r, 'harbour');
  const body = `${header('The Brackwater Courier', ['News', 'Energy', 'Environment', 'Business', 'Culture', 'Sport', 'Opinion'])}
<nav class="breadcrumb wrap" aria-label="Breadcrumb"><a href="/">Home</a> › <a href="/energy/">Energy</a> › <span aria-current="page">Long read</span></nav>
<aside class="toc" aria-label="Contents"><h2>Contents</h2><ol>${toc}</ol></aside>
<main id="main"><article>
<header><p class="kicker">The long read</p><h1>${esc(title)}</h1>
<p class="standfirst">${esc(sentence(r, 'harbour'))} ${esc(sentence(r, 'harbour'))}</p>
<p class="byline">By <a rel="author" href="/profile/${slug(person(r))}">${esc(person(r))}</a> and <a rel="author" href="/profile/${slug(person(r))}">${esc(person(r))}</a> · <time datetime="2026-03-14T06:00:00Z">14 March 2026</time> · 24 min read</p>
<div class="share">${['Email', 'Copy link', 'Print'].map((s) => `<button class="btn" type="button">${icon('share')} ${s}</button>`).join(' ')}</div></header>
${img('/media/harbour-lead.jpg', sentence(r, 'harbour'), 1200, 675, 'lead')}
${sections.join('\n')}
<section class="footnotes" aria-labelledby="footnotes-label"><h2 id="footnotes-label">Notes</h2><ol>${footnotes}</ol></section>
<p class="tags">Topics: ${TOPICS.harbour.nouns
    .slice(0, 8)
    .map((t) => `<a href="/topic/${slug(t)}">${esc(t)}</a>`)
    .join(', ')}</p>
</article>
<aside class="related wrap" aria-label="Related"><h2>More on this story</h2><ul>${related}</ul></aside>
<section class="comments wrap" aria-labelledby="comments-h"><h2 id="comments-h">${24} comments</h2>
<p class="muted">Sign in to see replies from people you follow. <a href="/account/login?next=comments">Sign in</a></p>
<form action="/comments" method="post"><label for="comment-body">Add a comment</label><textarea id="comment-body" name="body" rows="4"></textarea><button class="btn btn-primary" type="submit">Post comment</button></form>
<ol class="comment-list">${comments}</ol></section>
</main>
${footer(r, 'The Brackwater Courier', FOOT)}`;
  return page({ title: `${title} | The Brackwater Courier`, css, body });
}

function tideTable(r) {
  const rows = Array.from({ length: 14 }, (_, d) => {
    const cells = Array.from(
      { length: 4 },
      () => `<td>${String(r.int(0, 23)).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}</td>`,
    ).join('');
    return `<tr><th scope="row">${d + 1} March</th>${cells}<td>${(r.next() * 5 + 1).toFixed(2)} m</td></tr>`;
  }).join('\n');
  return `<table><caption>High and low water at the north quay, first fortnight of March</caption>
<thead><tr><th scope="col">Day</th><th scope="col">High</th><th scope="col">Low</th><th scope="col">High</th><th scope="col">Low</th><th scope="col">Range</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

const METHODS = [
  'open',
  'close',
  'request',
  'retry',
  'use',
  'route',
  'listen',
  'pause',
  'resume',
  'flush',
  'inject',
  'decorate',
];

/** A documentation page: sidebar navigation, code blocks, option tables, callouts, a contents list. */
export function docs(r) {
  const groups = [
    'Getting started',
    'Guides',
    'Routing',
    'Plugins',
    'Streams',
    'Testing',
    'Deployment',
    'API reference',
    'Recipes',
    'Migration',
  ];
  const nav = groups
    .map((g, gi) => {
      const items = Array.from({ length: r.int(8, 16) }, (_, i) => {
        const label =
          i % 3 === 0
            ? `${cap(r.pick(TOPICS.software.nouns))} ${plural(r.pick(TOPICS.software.nouns))}`
            : `${cap(r.pick(TOPICS.software.adjs))} ${r.pick(TOPICS.software.nouns)}`;
        const current = gi === 7 && i === 2;
        return `<li><a href="/docs/${slug(g)}/${slug(label)}-${i}"${current ? ' aria-current="page" class="active"' : ''}>${esc(label)}</a></li>`;
      }).join('');
      return `<li><details${gi === 7 ? ' open' : ''}><summary>${esc(g)}</summary><ul>${items}</ul></details></li>`;
    })
    .join('\n');
  const sections = METHODS.map((m) => docSection(r, m)).join('\n');
  const onThisPage = METHODS.map((m) => `<li><a href="#client-${m}">client.${m}()</a></li>`).join('');
  const css = styles(
    r,
    '.layout{display:grid;grid-template-columns:260px 1fr 200px;gap:32px}.sidebar{position:sticky;top:60px;height:calc(100vh - 60px);overflow:auto;font-size:14px}.sidebar ul{list-style:none;padding-left:12px}pre{background:#0f172a;color:#e2e8f0;padding:16px;border-radius:8px;overflow:auto;font-size:14px}.k{color:#f472b6}.s{color:#a3e635}.c{color:#94a3b8}.n{color:#fbbf24}.callout{border-left:4px solid #f59e0b;background:#fffbeb;padding:12px 16px}table{border-collapse:collapse;width:100%;font-size:14px}td,th{border-bottom:1px solid #e5e7eb;padding:6px 8px;text-align:left}code{font-family:ui-monospace,monospace}',
    220,
  );
  const body = `${header('Quillstone', ['Docs', 'API', 'Blog', 'Community', 'Changelog'], { account: false })}
<div class="wrap layout">
<nav class="sidebar" aria-label="Documentation"><p><label for="version">Version</label> <select id="version"><option>4.2 (current)</option><option>4.1</option><option>3.x</option></select></p><ul>${nav}</ul></nav>
<main id="content">
<nav aria-label="Breadcrumb" class="muted"><a href="/docs/">Docs</a> › <a href="/docs/api-reference/">API reference</a> › Client</nav>
<h1>The client</h1>
<p class="lead">${paragraph(r, 'software', 2, 3)}</p>
<div class="callout" role="note"><strong>Note</strong> ${esc(sentence(r, 'software'))} See <a href="/docs/migration/">the migration guide</a>.</div>
<h2 id="install">Installing</h2>
<pre><code><span class="c"># with npm</span>
npm install quillstone
<span class="c"># or pin a version</span>
npm install quillstone@4.2.0</code></pre>
${sections}
<nav class="pager" aria-label="Pages"><a rel="prev" href="/docs/api-reference/server">‹ Server</a> <a rel="next" href="/docs/api-reference/errors">Errors ›</a></nav>
<p class="muted">Was this page useful? <button class="btn" type="button">Yes</button> <button class="btn" type="button">No</button> · <a href="/edit/docs/api/client.md">Edit this page</a></p>
</main>
<aside aria-label="On this page"><h2 class="u-fontsize-3">On this page</h2><ul>${onThisPage}</ul></aside>
</div>
${footer(r, 'Quillstone', { Docs: ['Guides', 'API', 'Examples', 'FAQ'], Community: ['Forum', 'Chat', 'Meetups', 'Code of conduct'], Project: ['Releases', 'Roadmap', 'Security', 'Licence'], More: ['Blog', 'Talks', 'Sponsors', 'Status'] })}`;
  return page({ title: 'Client – Quillstone 4.2 documentation', css, body });
}

function docSection(r, m) {
  const nouns = TOPICS.software.nouns;
  const opts = Array.from({ length: r.int(5, 10) }, () => {
    const name = `${r.pick(TOPICS.software.adjs)}${cap(r.pick(nouns).replace(' ', ''))}`;
    const type = r.pick(['boolean', 'number', 'string', 'Function', 'AbortSignal', 'Record<string, string>']);
    return `<tr><td><code>${esc(name)}</code></td><td><code>${esc(type)}</code></td><td><code>${type === 'boolean' ? 'false' : type === 'number' ? r.int(1, 30_000) : 'undefined'}</code></td><td>${esc(sentence(r, 'software'))}</td></tr>`;
  }).join('\n');
  const lines = [];
  for (let i = 0; i < r.int(8, 18); i++) {
    const v = r.pick(nouns).replace(' ', '');
    lines.push(
      r.pick([
        `<span class="k">const</span> ${v}${i} = <span class="k">await</span> client.${m}(<span class="s">'/${slug(r.pick(nouns))}'</span>, { timeout: <span class="n">${r.int(100, 9000)}</span> });`,
        `<span class="c">// ${esc(sentence(r, 'software'))}</span>`,
        `<span class="k">if</span> (!${v}${i}.ok) <span class="k">throw new</span> Error(<span class="s">'${esc(r.pick(TOPICS.software.adjs))} ${esc(r.pick(nouns))}'</span>);`,
        `client.on(<span class="s">'${m}'</span>, (event) =&gt; log(event.${r.pick(nouns).replace(' ', '')}));`,
      ]),
    );
  }
  return `<section id="client-${m}"><h2>client.${m}(<var>target</var>, <var>options</var>)</h2>
<p>${paragraph(r, 'software', 2, 4)}</p>
<h3>Options</h3>
<table><thead><tr><th>Name</th><th>Type</th><th>Default</th><th>Description</th></tr></thead><tbody>${opts}</tbody></table>
<h3>Example</h3>
<div class="code"><button class="btn copy" type="button" aria-label="Copy code">Copy</button><pre><code>${lines.join('\n')}</code></pre></div>
<p>${paragraph(r, 'software', 2, 5)}</p>
${r.chance(0.4) ? `<div class="callout" role="note"><strong>Warning</strong> ${esc(sentence(r, 'software'))}</div>` : ''}
</section>`;
}

/** A news front page: a lead story, many sections of headlines, a most-read list, a newsletter box. */
export function news(r) {
  const sectionNames = [
    'UK',
    'World',
    'Politics',
    'Business',
    'Climate',
    'Health',
    'Education',
    'Science',
    'Technology',
    'Culture',
    'Sport',
    'Football',
    'Travel',
    'Money',
    'Opinion',
    'Weather',
  ];
  const story = (cls, withPic, withStand) =>
    `<article class="${cls}">${withPic ? img(`/img/${r.int(10_000, 99_999)}.jpg`, sentence(r, 'news'), 480, 270) : ''}<h3><a href="/${slug(r.pick(sectionNames))}/2026/mar/14/${slug(headline(r, 'news'))}">${esc(headline(r, 'news'))}</a></h3>${withStand ? `<p>${esc(sentence(r, 'news'))}</p>` : ''}<p class="muted"><time datetime="2026-03-14T${String(r.int(5, 21)).padStart(2, '0')}:00">${r.int(1, 11)}h ago</time>${r.chance(0.3) ? ` · <a href="#comments">${r.int(3, 900)} comments</a>` : ''}</p></article>`;
  const blocks = sectionNames
    .map((name) => {
      const stories = Array.from({ length: r.int(7, 13) }, (_, i) => story('card', i < 2, i < 4)).join('\n');
      return `<section class="front-section" aria-labelledby="s-${slug(name)}"><h2 id="s-${slug(name)}"><a href="/${slug(name)}">${esc(name)}</a></h2><div class="grid">${stories}</div></section>`;
    })
    .join('\n');
  const mostRead = Array.from(
    { length: 10 },
    () => `<li><a href="/story/${r.int(1000, 99_999)}">${esc(headline(r, 'news'))}</a></li>`,
  ).join('');
  const ticker = Array.from(
    { length: 12 },
    () => `<li><a href="/live/${r.int(1000, 9999)}">${esc(headline(r, 'news'))}</a></li>`,
  ).join('');
  const css = styles(
    r,
    '.breaking{background:#b91c1c;color:#fff;padding:6px 0}.breaking ul{display:flex;gap:24px;overflow:hidden;white-space:nowrap;list-style:none;margin:0}.breaking a{color:#fff}.grid{display:grid;grid-template-columns:repeat(4,1fr);gap:16px}.front-section{border-top:2px solid #111827;margin-top:24px}.lead h2{font-size:34px}.layout{display:grid;grid-template-columns:1fr 300px;gap:24px}',
    180,
  );
  const body = `<a class="sr-only" href="#main">Skip to content</a>
${header('The Eastbridge Herald', sectionNames.slice(0, 10))}
<div class="breaking" role="region" aria-label="Latest"><div class="wrap"><strong>Live</strong><ul>${ticker}</ul></div></div>
<main id="main" class="wrap"><div class="layout"><div>
<section class="lead" aria-label="Top story">${img('/img/lead.jpg', sentence(r, 'news'), 1000, 560)}<h2><a href="/politics/2026/mar/14/lead">${esc(headline(r, 'news'))}</a></h2><p>${paragraph(r, 'news', 2, 3)}</p>
<ul class="more">${Array.from({ length: 4 }, () => `<li><a href="/story/${r.int(1000, 9999)}">${esc(headline(r, 'news'))}</a></li>`).join('')}</ul></section>
${blocks}
</div>
<aside aria-label="Most read"><h2>Most read</h2><ol>${mostRead}</ol>
<div class="promo"><h2>Morning briefing</h2><p>${esc(sentence(r, 'news'))}</p><form action="/newsletters" method="post"><label for="brief-email">Email address</label><input id="brief-email" type="email" name="email"><button class="btn btn-primary" type="submit">Sign up</button></form></div>
<div class="weather"><h2>Weather</h2><label for="town">Your town</label> <select id="town">${['Eastbridge', 'Lowmoor', 'Kettering Vale', 'Saltfleet'].map((t) => `<option>${t}</option>`).join('')}</select><p>${r.int(4, 16)}°C, ${r.pick(['light rain', 'sunny spells', 'overcast', 'fresh breeze'])}</p></div>
</aside></div></main>
${footer(r, 'The Eastbridge Herald', FOOT)}`;
  return page({ title: 'News, sport and opinion from the Eastbridge Herald', css, body });
}

/** A forum thread: forty posts with quotes and code, reactions, pagination and a reply form. */
export function forum(r) {
  const users = Array.from({ length: 14 }, () => ({
    name: person(r),
    posts: r.int(3, 4000),
    since: r.int(2011, 2025),
  }));
  const posts = Array.from({ length: 40 }, (_, i) => {
    const u = r.pick(users);
    const quote =
      i > 0 && r.chance(0.35)
        ? `<blockquote><p class="muted">${esc(r.pick(users).name)} wrote:</p><p>${esc(sentence(r, 'baking'))}</p></blockquote>`
        : '';
    const recipe = r.chance(0.15)
      ? `<pre><code>flour      ${r.int(400, 600)} g\nwater      ${r.int(300, 450)} g\nstarter    ${r.int(50, 150)} g\nsalt       ${r.int(8, 12)} g</code></pre>`
      : '';
    const paras = Array.from({ length: r.int(1, 4) }, () => `<p>${paragraph(r, 'baking', 2, 5)}</p>`).join(
      '',
    );
    return `<article class="post" id="post-${i + 1}" aria-labelledby="post-${i + 1}-by">
<aside class="author"><img src="/avatars/${slug(u.name)}.png" alt="" width="48" height="48"><a id="post-${i + 1}-by" href="/members/${slug(u.name)}">${esc(u.name)}</a><span class="muted">${u.posts} posts · since ${u.since}</span></aside>
<div class="post-body"><p class="muted"><a href="#post-${i + 1}">#${i + 1}</a> · <time datetime="2026-02-${String((i % 28) + 1).padStart(2, '0')}">${(i % 28) + 1} Feb 2026</time></p>
${quote}${paras}${recipe}
<div class="reactions"><button class="btn" type="button" aria-pressed="false">👍 ${r.int(0, 40)}</button> <button class="btn" type="button" aria-pressed="false">🍞 ${r.int(0, 20)}</button></div>
<div class="post-actions"><button class="btn" type="button">Quote</button> <button class="btn" type="button">Reply</button> <a href="/report/post/${i + 1}">Report</a> <button class="btn" type="button" aria-label="More actions for post ${i + 1}">…</button></div></div></article>`;
  }).join('\n');
  const pages = Array.from(
    { length: 7 },
    (_, i) => `<li><a href="?page=${i + 1}"${i === 1 ? ' aria-current="page"' : ''}>${i + 1}</a></li>`,
  ).join('');
  const css = styles(
    r,
    '.post{display:grid;grid-template-columns:180px 1fr;gap:16px;border:1px solid #e5e7eb;border-radius:8px;margin:12px 0;padding:12px}.author{display:flex;flex-direction:column;font-size:14px}blockquote{border-left:3px solid #9ca3af;margin:8px 0;padding-left:12px;color:#4b5563}.pagination{display:flex;gap:6px;list-style:none}.toolbar{display:flex;gap:4px}',
    140,
  );
  const title = `${headline(r, 'baking')}?`;
  const body = `${header('Crumb & Crust forum', ['Forums', 'Recipes', 'Members', 'Help'])}
<main class="wrap" id="main">
<nav aria-label="Breadcrumb" class="muted"><a href="/">Forums</a> › <a href="/f/sourdough">Sourdough</a> › <a href="/f/sourdough/troubleshooting">Troubleshooting</a></nav>
<h1>${esc(title)}</h1>
<p class="muted">Started by ${esc(users[0]?.name ?? '')} · 40 replies · 3 812 views <button class="btn" type="button">Watch thread</button></p>
<nav aria-label="Thread pages"><ul class="pagination"><li><a href="?page=1" rel="prev">Previous</a></li>${pages}<li><a href="?page=3" rel="next">Next</a></li></ul></nav>
${posts}
<nav aria-label="Thread pages, bottom"><ul class="pagination">${pages}</ul></nav>
<section class="reply" aria-labelledby="reply-h"><h2 id="reply-h">Reply to this thread</h2>
<form action="/f/sourdough/reply" method="post"><div class="toolbar" role="toolbar" aria-label="Formatting">${['Bold', 'Italic', 'Link', 'Quote', 'Code', 'Image', 'List'].map((b) => `<button class="btn" type="button" aria-label="${b}">${b[0]}</button>`).join('')}</div>
<label for="reply-body" class="sr-only">Your reply</label><textarea id="reply-body" name="body" rows="8" placeholder="Write your reply"></textarea>
<label><input type="checkbox" name="watch" checked> Email me when someone replies</label>
<button class="btn btn-primary" type="submit">Post reply</button> <button class="btn" type="button">Preview</button></form></section>
</main>
${footer(r, 'Crumb & Crust', { Forums: ['Sourdough', 'Yeasted breads', 'Pastry', 'Gluten free'], Community: ['Members', 'Bake-alongs', 'Photo gallery', 'Rules'], Help: ['FAQ', 'Contact', 'Report a problem'], Site: ['Privacy', 'Cookies', 'Terms'] })}`;
  return page({ title: `${title} | Crumb & Crust forum`, css, body });
}
