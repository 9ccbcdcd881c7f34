// Seeded text for the project's page corpus (scripts/make-corpus.mjs): a small PRNG and a sentence
// grammar over word lists written here. The same seed gives the same text on every machine, so the
// pages in tests/fixtures/corpus can be rebuilt byte for byte and checked against the generator.

/** A 32-bit PRNG (mulberry32 step), seeded from a string. */
export function rng(seedText) {
  let seed = 2166136261;
  for (const ch of seedText) seed = Math.imul(seed ^ ch.charCodeAt(0), 16777619) >>> 0;
  const next = () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(next() * list.length)];
  const chance = (p) => next() < p;
  return { next, int, pick, chance };
}

export const esc = (s) =>
  String(s)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

export const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

export const slug = (s) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const FIRST = [
  'Mara',
  'Tobias',
  'Ines',
  'Kwame',
  'Oskar',
  'Lena',
  'Ravi',
  'Sofia',
  'Jonah',
  'Priya',
  'Elif',
  'Marek',
  'Hana',
  'Dario',
  'Yusuf',
  'Greta',
  'Nadia',
  'Colm',
  'Aiko',
  'Bruno',
];
const LAST = [
  'Okafor',
  'Lindqvist',
  'Ferreira',
  'Halloran',
  'Brandt',
  'Nakamura',
  'Szabo',
  'Mensah',
  'Duval',
  'Kowalczyk',
  'Arslan',
  'Whitcombe',
  'Rautio',
  'Castell',
  'Iyer',
  'Moreau',
  'Petrak',
  'Quinlan',
];

/** The plural of a noun of the word lists. */
export const plural = (n) =>
  /[^aeiou]y$/.test(n) ? `${n.slice(0, -1)}ies` : /(s|sh|ch)$/.test(n) ? `${n}es` : `${n}s`;

/** A word with its indefinite article. */
const an = (word) => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;

export const person = (r) => `${r.pick(FIRST)} ${r.pick(LAST)}`;

/** Word lists for one subject: nouns, adjectives, verbs (present third person, past), places. */
export const TOPICS = {
  harbour: {
    nouns: [
      'tide',
      'turbine',
      'estuary',
      'harbour',
      'council',
      'survey',
      'channel',
      'seawall',
      'grid',
      'fishery',
      'pilot scheme',
      'mooring',
      'sandbank',
      'ferry',
      'forecast',
      'budget',
      'engineer',
      'report',
    ],
    adjs: [
      'tidal',
      'coastal',
      'shallow',
      'cautious',
      'ambitious',
      'costly',
      'seasonal',
      'unexpected',
      'modest',
      'stubborn',
      'quiet',
      'lengthy',
      'regional',
      'untested',
    ],
    verbs: [
      'measures',
      'delays',
      'reshapes',
      'supplies',
      'questions',
      'outlasts',
      'strains',
      'follows',
      'protects',
      'replaces',
      'predicts',
      'funds',
    ],
    past: [
      'measured',
      'delayed',
      'reshaped',
      'supplied',
      'questioned',
      'outlasted',
      'strained',
      'followed',
      'protected',
      'replaced',
      'predicted',
      'funded',
    ],
    orgs: [
      'the Harbour Trust',
      'the Coastal Energy Office',
      'Brackwater Council',
      'the Estuary Anglers Club',
      'Northmere University',
    ],
    places: [
      'Brackwater',
      'the north quay',
      'Saltfleet',
      'the outer bar',
      'Gull Point',
      'the old ferry slip',
    ],
  },
  software: {
    nouns: [
      'request',
      'handler',
      'cache',
      'option',
      'schema',
      'plugin',
      'connection',
      'worker',
      'response',
      'timeout',
      'queue',
      'parser',
      'client',
      'middleware',
      'stream',
      'token',
      'route',
      'retry',
    ],
    adjs: [
      'default',
      'optional',
      'asynchronous',
      'nested',
      'typed',
      'idle',
      'pending',
      'stale',
      'custom',
      'global',
      'strict',
      'lazy',
      'shared',
      'internal',
    ],
    verbs: [
      'returns',
      'accepts',
      'resolves',
      'rejects',
      'registers',
      'validates',
      'caches',
      'wraps',
      'emits',
      'retries',
      'closes',
      'parses',
    ],
    past: [
      'returned',
      'accepted',
      'resolved',
      'rejected',
      'registered',
      'validated',
      'cached',
      'wrapped',
      'emitted',
      'retried',
      'closed',
      'parsed',
    ],
    orgs: ['the router', 'the runtime', 'the connection pool', 'the scheduler', 'the codec'],
    places: ['the constructor', 'the config file', 'a route handler', 'the test suite', 'the worker thread'],
  },
  outdoors: {
    nouns: [
      'jacket',
      'tent',
      'stove',
      'boot',
      'rucksack',
      'sleeping bag',
      'lantern',
      'trekking pole',
      'shell',
      'base layer',
      'flask',
      'gaiter',
      'stuff sack',
      'hood',
      'zip',
      'seam',
      'sole',
      'strap',
    ],
    adjs: [
      'waterproof',
      'lightweight',
      'breathable',
      'packable',
      'insulated',
      'rugged',
      'roomy',
      'warm',
      'sturdy',
      'compact',
      'windproof',
      'recycled',
      'quick-drying',
      'padded',
    ],
    verbs: [
      'keeps',
      'packs',
      'weighs',
      'handles',
      'fits',
      'survives',
      'sheds',
      'holds',
      'folds',
      'grips',
      'vents',
      'lasts',
    ],
    past: [
      'kept',
      'packed',
      'weighed',
      'handled',
      'fitted',
      'survived',
      'shed',
      'held',
      'folded',
      'gripped',
      'vented',
      'lasted',
    ],
    orgs: ['our test team', 'the warehouse', 'the repair desk', 'the fitting room', 'the returns team'],
    places: ['the ridge', 'a wet weekend', 'the bothy', 'the lower valley', 'a windy col', 'the car park'],
  },
  news: {
    nouns: [
      'minister',
      'election',
      'strike',
      'budget',
      'hospital',
      'league',
      'court',
      'festival',
      'rail line',
      'inquiry',
      'market',
      'storm',
      'school',
      'bridge',
      'vote',
      'deal',
      'trial',
      'museum',
    ],
    adjs: [
      'local',
      'national',
      'late',
      'surprise',
      'bitter',
      'record',
      'delayed',
      'fresh',
      'final',
      'disputed',
      'early',
      'crucial',
      'rare',
      'weekly',
    ],
    verbs: [
      'faces',
      'wins',
      'blocks',
      'opens',
      'backs',
      'rejects',
      'delays',
      'warns',
      'plans',
      'cuts',
      'calls',
      'reaches',
    ],
    past: [
      'faced',
      'won',
      'blocked',
      'opened',
      'backed',
      'rejected',
      'delayed',
      'warned',
      'planned',
      'cut',
      'called',
      'reached',
    ],
    orgs: [
      'the transport authority',
      'the city council',
      'the health board',
      'the county league',
      'the teachers union',
    ],
    places: ['Eastbridge', 'the capital', 'Lowmoor', 'the valley towns', 'the coast road', 'Kettering Vale'],
  },
  baking: {
    nouns: [
      'starter',
      'dough',
      'crumb',
      'crust',
      'loaf',
      'banneton',
      'oven',
      'hydration',
      'flour',
      'proof',
      'fold',
      'levain',
      'scoring',
      'steam',
      'tin',
      'rye',
      'bake',
      'kitchen',
    ],
    adjs: [
      'sour',
      'sticky',
      'open',
      'dense',
      'slack',
      'airy',
      'cold',
      'overproofed',
      'wholemeal',
      'patient',
      'crisp',
      'pale',
      'lively',
      'sluggish',
    ],
    verbs: [
      'rises',
      'spreads',
      'doubles',
      'needs',
      'tears',
      'browns',
      'ferments',
      'collapses',
      'sticks',
      'shapes',
      'springs',
      'settles',
    ],
    past: [
      'rose',
      'spread',
      'doubled',
      'needed',
      'tore',
      'browned',
      'fermented',
      'collapsed',
      'stuck',
      'shaped',
      'sprang',
      'settled',
    ],
    orgs: [
      'my neighbour',
      'the baking group',
      'the mill down the road',
      'my old flatmate',
      'the bakery course',
    ],
    places: [
      'the fridge',
      'a warm cupboard',
      'the top shelf',
      'a cast-iron pot',
      'the windowsill',
      'a cold kitchen',
    ],
  },
};

const PREPS = [
  'near',
  'after',
  'before',
  'along',
  'beside',
  'without',
  'despite',
  'within',
  'across',
  'around',
];
const LINKS = [
  'However',
  'Meanwhile',
  'Even so',
  'In practice',
  'By contrast',
  'For now',
  'Still',
  'As a result',
  'At first',
  'Later',
];
const AMOUNTS = ['a third of', 'most of', 'half of', 'a handful of', 'nearly all of', 'few of', 'some of'];

/** One sentence on `topic`, 8 to 30 words, from a few shapes. */
export function sentence(r, topic) {
  const t = TOPICS[topic];
  const np = () => `the ${r.chance(0.5) ? `${r.pick(t.adjs)} ` : ''}${r.pick(t.nouns)}`;
  const clause = () =>
    `${np()} ${r.pick(t.verbs)} ${np()}${r.chance(0.5) ? ` ${r.pick(PREPS)} ${r.pick(t.places)}` : ''}`;
  const shapes = [
    () => cap(clause()),
    () => `${r.pick(LINKS)}, ${clause()}`,
    () => `${cap(clause())}, and ${clause()}`,
    () => `${person(r)} said ${np()} had ${r.pick(t.past)} ${np()} ${r.pick(PREPS)} ${r.pick(t.places)}`,
    () =>
      `According to ${r.pick(t.orgs)}, ${r.pick(AMOUNTS)} the ${plural(r.pick(t.nouns))} ${r.pick(t.past)} ${np()} last year`,
    () =>
      `${cap(np())}, which ${r.pick(t.verbs)} ${np()}, ${r.pick(t.past)} ${np()} ${r.int(2, 40)} times in ${r.int(3, 18)} months`,
    () => `${cap(clause())}; ${clause()}`,
    () => `Nobody at ${r.pick(t.places)} expected ${np()} to be so ${r.pick(t.adjs)}`,
  ];
  const text = r.pick(shapes)();
  return `${cap(text)}${r.chance(0.1) ? '?' : '.'}`;
}

/** A paragraph of `min`..`max` sentences, as HTML with an occasional link or emphasis. */
export function paragraph(r, topic, min = 3, max = 7, link = () => '#') {
  const parts = [];
  const n = r.int(min, max);
  for (let i = 0; i < n; i++) {
    let s = esc(sentence(r, topic));
    if (r.chance(0.12)) {
      const words = s.split(' ');
      const at = r.int(1, Math.max(1, words.length - 3));
      const len = r.int(1, 3);
      const inner = words.slice(at, at + len).join(' ');
      const tag = r.chance(0.6) ? `<a href="${link()}">${inner}</a>` : `<em>${inner}</em>`;
      s = [...words.slice(0, at), tag, ...words.slice(at + len)].join(' ');
    }
    parts.push(s);
  }
  return parts.join(' ');
}

/** A short title (3 to 8 words) on `topic`. */
export function headline(r, topic) {
  const t = TOPICS[topic];
  const shapes = [
    () => `${cap(r.pick(t.adjs))} ${r.pick(t.nouns)} ${r.pick(t.verbs)} ${r.pick(t.nouns)}`,
    () => `Why the ${r.pick(t.nouns)} ${r.pick(t.past)} ${r.pick(t.places)}`,
    () => `${cap(r.pick(t.orgs))} ${r.pick(t.verbs)} ${r.pick(t.adjs)} ${r.pick(t.nouns)} plan`,
    () =>
      `${cap(r.pick(t.nouns))} ${r.pick(t.verbs)} ${r.pick(t.adjs)} ${r.pick(t.nouns)} ${r.pick(PREPS)} ${r.pick(t.places)}`,
    () => `What ${an(r.pick(t.adjs))} ${r.pick(t.nouns)} means for ${r.pick(t.places)}`,
  ];
  return cap(r.pick(shapes)());
}
